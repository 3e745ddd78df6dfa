/**
 * `npm run bench -- --only=operations`: what an operations team lives with.
 *
 * 1. Clock skew: the server's clock ±10 min and ±1 h from the client's, 4 s tokens, 8 s of steady
 *    calls: refreshes (one per token lifetime less its margin is the ideal), expired tokens sent,
 *    and how far an HTTP-date Retry-After's wait is from its server-time meaning.
 * 2. Refresh under load: 3 s tokens whose refresh takes 300 ms, 3 callers for 9 s: p50/p99 of calls
 *    that began within 400 ms after a refresh started, and elsewhere; calls that waited ≥ 300 ms.
 * 3. Lanes: a background job reading 10 000 events as 1 000 pages of 10 (`priority: "low"`, all
 *    started at once, 50 ms each) saturating the 8 slots,
 *    and an interactive read every 100 ms: the interactive calls' wait beyond their own 50 ms
 *    (p50/p99), and how far the background job got meanwhile.
 *
 * The server is test/support/skewed-api.ts (node:http, 127.0.0.1, in this process: the figures
 * are waits of hundreds of ms, not CPU).
 */
import { createAudienceClient } from "../src/index.ts";
import { type SkewedApi, startSkewedApi } from "../test/support/skewed-api.ts";
import { credentials, fixed, type Section, sleep, type Target, table } from "./support.ts";

type Client = ReturnType<typeof createAudienceClient>;

const percentile = (values: readonly number[], p: number): number => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
};

async function steady(
  client: Client,
  workers: number,
  durationMs: number,
  onCall?: (startedAt: number, ms: number) => void,
) {
  const started = Date.now();
  let n = 0;
  let failed = 0;
  const worker = async () => {
    while (Date.now() - started < durationMs) {
      const at = Date.now();
      const t = performance.now();
      const { error } = await client.GET("/events/{eid}", { params: { path: { eid: `e${n++}` } } });
      if (error) failed += 1;
      onCall?.(at, performance.now() - t);
      await sleep(20);
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  return { calls: n, failed };
}

async function clockSkew(targets: Target[]): Promise<string> {
  const rows: string[][] = [];
  const lifetimeS = 4;
  const durationMs = 8000;
  // Margin: half the lifetime (it is under 2 min): one refresh every 2 s, 4 in 8 s (5 at a boundary).
  const ideal = Math.ceil(durationMs / ((lifetimeS * 1000) / 2)) + 1;
  let worstRefresh = 0;
  let expired = 0;
  let worstRetry = 0;
  for (const [name, skewMs] of [
    ["1 h behind", -3_600_000],
    ["10 min behind", -600_000],
    ["in step", 0],
    ["10 min ahead", 600_000],
    ["1 h ahead", 3_600_000],
  ] as const) {
    const api = await startSkewedApi({ skewMs, lifetimeS });
    try {
      const client = createAudienceClient({ baseUrl: api.baseUrl, credentials, retry: { maxRetryAfterMs: 10_000 } });
      const { calls, failed } = await steady(client, 2, durationMs);
      const waited = api.rateLimitNext(3);
      await client.GET("/events/{eid}", { params: { path: { eid: "after-429" } } });
      const { waitedMs, meantMs } = await waited;
      const off = Math.abs(waitedMs - meantMs);
      worstRefresh = Math.max(worstRefresh, api.stats.refreshes);
      expired += api.stats.expiredSent;
      worstRetry = Math.max(worstRetry, off);
      rows.push([
        name,
        String(calls),
        String(failed),
        String(api.stats.signIns),
        String(api.stats.refreshes),
        String(api.stats.expiredSent),
        `${fixed(meantMs, 0)} ms`,
        `${fixed(waitedMs, 0)} ms`,
      ]);
    } finally {
      await api.close();
    }
  }
  targets.push(
    {
      name: "clock ±10 min/±1 h: refreshes in 8 s of 4 s tokens",
      target: `≤ ${ideal} (one per lifetime less its margin)`,
      measured: `worst ${worstRefresh}`,
      met: worstRefresh <= ideal,
    },
    { name: "clock ±10 min/±1 h: expired tokens sent", target: "0", measured: String(expired), met: expired === 0 },
    {
      name: "clock ±10 min/±1 h: HTTP-date Retry-After wait vs its meaning",
      target: "within 1 s",
      measured: `worst ${fixed(worstRetry, 0)} ms off`,
      met: worstRetry <= 1000,
    },
  );
  return table(
    ["server clock", "calls", "failed", "sign-ins", "refreshes", "expired sent", "Retry-After meant", "waited"],
    rows,
  );
}

async function refreshUnderLoad(targets: Target[]): Promise<string> {
  const refreshDelayMs = 300;
  const api: SkewedApi = await startSkewedApi({ lifetimeS: 3, refreshDelayMs, latencyMs: 5 });
  const near: number[] = [];
  const elsewhere: number[] = [];
  const calls: Array<[number, number]> = [];
  try {
    const client = createAudienceClient({ baseUrl: api.baseUrl, credentials });
    await client.GET("/events/{eid}", { params: { path: { eid: "warm" } } });
    await steady(client, 3, 9000, (at, ms) => calls.push([at, ms]));
  } finally {
    await api.close();
  }
  // A refresh was answered at `r`; it started refreshDelayMs before.
  const starts = api.refreshedAt.map((r) => r - refreshDelayMs);
  for (const [at, ms] of calls) (starts.some((s) => at >= s - 50 && at <= s + 400) ? near : elsewhere).push(ms);
  const waited = calls.filter(([, ms]) => ms >= refreshDelayMs).length;
  const p99Near = percentile(near, 99);
  const p99Else = percentile(elsewhere, 99);
  targets.push(
    {
      name: "refresh under load: calls that waited on a planned refresh",
      target: "0",
      measured: String(waited),
      met: waited === 0,
    },
    {
      name: "refresh under load: p99 near a refresh vs elsewhere",
      target: "no slower",
      measured: `${fixed(p99Near)} vs ${fixed(p99Else)} ms`,
      met: p99Near <= Math.max(p99Else * 1.5, p99Else + 10),
    },
  );
  return table(
    ["calls", "refreshes", "near a refresh p50 / p99", "elsewhere p50 / p99", "waited ≥ 300 ms"],
    [
      [
        String(calls.length),
        String(api.stats.refreshes),
        `${fixed(percentile(near, 50))} / ${fixed(p99Near)} ms (${near.length})`,
        `${fixed(percentile(elsewhere, 50))} / ${fixed(p99Else)} ms (${elsewhere.length})`,
        String(waited),
      ],
    ],
  );
}

async function lanes(targets: Target[]): Promise<string> {
  const latencyMs = 50;
  const api = await startSkewedApi({ latencyMs });
  const waits: number[] = [];
  let backgroundDone = 0;
  const background = 1000; // 10 000 events as 1 000 pages of 10
  try {
    const client = createAudienceClient({ baseUrl: api.baseUrl, credentials });
    await client.GET("/events/{eid}", { params: { path: { eid: "warm" } } });
    const job = Promise.all(
      Array.from({ length: background }, (_, i) =>
        client
          .GET("/events/", {
            params: { query: { page: i + 1, limit: 10 } },
            priority: "low",
          } as Parameters<Client["GET"]>[1])
          .then(() => {
            backgroundDone += 1;
          }),
      ),
    );
    let doneAtStart = -1;
    for (let i = 0; i < 20; i++) {
      await sleep(100);
      if (i === 0) doneAtStart = backgroundDone;
      const t = performance.now();
      await client.GET("/events/{eid}", { params: { path: { eid: `i${i}` } } });
      waits.push(Math.max(0, performance.now() - t - latencyMs));
    }
    const progressed = backgroundDone - doneAtStart;
    await job;
    const p99 = percentile(waits, 99);
    targets.push(
      {
        name: "lanes: interactive slot wait with background saturating the slots (p99)",
        target: `≤ one call (${latencyMs} ms)`,
        measured: `${fixed(p99)} ms`,
        met: p99 <= latencyMs,
      },
      {
        name: "lanes: background progress meanwhile",
        target: "> 0",
        measured: `${progressed} of ${background} calls`,
        met: progressed > 0,
      },
    );
    return table(
      ["background calls", "interactive calls", "interactive wait p50 / p99", "background done meanwhile"],
      [
        [
          String(background),
          String(waits.length),
          `${fixed(percentile(waits, 50))} / ${fixed(p99)} ms`,
          String(progressed),
        ],
      ],
    );
  } finally {
    await api.close();
  }
}

export async function operations(): Promise<Section> {
  const targets: Target[] = [];
  const body = [
    "Clock skew (`test/support/skewed-api.ts`, server clock off by the amount shown; 4 s tokens, 2 callers for 8 s, then one 429 with an HTTP-date `Retry-After` 3 s ahead in server time):",
    "",
    await clockSkew(targets),
    "",
    "Refresh under load (3 s tokens, refresh answered after 300 ms, 3 callers for 9 s; “near” = began from 50 ms before to 400 ms after a refresh started):",
    "",
    await refreshUnderLoad(targets),
    "",
    'Lanes (a background job reads 10 000 events as 1 000 `GET /events/` pages of 10 with `priority: "low"`, all started at once, 50 ms each; an interactive `GET /events/{eid}` every 100 ms; wait = latency − 50 ms):',
    "",
    await lanes(targets),
  ].join("\n");
  return { title: "Operations (clock skew, token expiry, lanes)", body, targets };
}
