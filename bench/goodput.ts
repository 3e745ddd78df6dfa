/**
 * (b) Goodput under the partner's rate limit: 400 event-benchmark reads against the limited mount
 * (20 calls/s, burst 10, 20 ms latency, 429 without Retry-After). Each variant uses its own partner
 * id, so each starts with a full bucket of its own; the variants run one after the other, once
 * each (a run takes about as long as the limit allows; the server counts the 429s).
 */
import createClient from "openapi-fetch";
import pRetry, { AbortError } from "p-retry";
import type { paths } from "../generated/schema.ts";
import { createAudienceClient, readBenchmark } from "../src/index.ts";
import { SPEC } from "../src/limits.ts";
import { ConcurrencyLimiter } from "../src/transport/limiter.ts";
import { AwsAdaptiveLimiter } from "./aws-adaptive-limiter.ts";
import { BURST, GOODPUT_CALLS, IDEAL_S, LATENCY_MS, RATE } from "./scenario.ts";
import { type BenchServer, bareHeaders, credentials, fixed, ratio, type Section, sleep, table } from "./support.ts";

interface Outcome {
  readonly name: string;
  readonly seconds: number;
  readonly refused: number;
  readonly failed: number;
  readonly admitted: number;
}

const eids = Array.from({ length: GOODPUT_CALLS }, (_, i) => `evt-${i + 1}`);
/** Section 8.3: a 429 without Retry-After waits 5 to 10 s. */
const rateLimitWait = () =>
  SPEC.rateLimitWaitMinMs + Math.random() * (SPEC.rateLimitWaitMaxMs - SPEC.rateLimitWaitMinMs);

async function timed(server: BenchServer, name: string, partner: string, run: () => Promise<number>): Promise<Outcome> {
  const started = performance.now();
  const failed = await run();
  const seconds = (performance.now() - started) / 1000;
  const { admitted, refused } = await server.counts(partner);
  return { name, seconds, refused, failed, admitted };
}

/** Settles every call; resolves with the number that failed. */
async function settle(calls: Array<Promise<unknown>>): Promise<number> {
  const results = await Promise.allSettled(calls);
  return results.filter((r) => r.status === "rejected").length;
}

function bareClient(server: BenchServer, authorization: string) {
  return createClient<paths>({ baseUrl: server.limited, headers: { Authorization: authorization } });
}

async function readBare(api: ReturnType<typeof bareClient>, partner: string, eid: string): Promise<number> {
  const { response } = await api.GET("/events/{eid}/lookout_prediction_benchmark", {
    params: { path: { eid }, query: { type: "capacity" }, header: { "X-Preferred-Partner-Id": partner } },
  });
  return response.status;
}

function thisClient(server: BenchServer, name: string, partner: string, ratePacing: boolean) {
  return timed(server, name, partner, async () => {
    const client = createAudienceClient({ baseUrl: server.limited, credentials, partnerId: partner, ratePacing });
    return settle(eids.map((eid) => readBenchmark(client, eid, { type: "capacity" })));
  });
}

async function bareAll(server: BenchServer): Promise<Outcome> {
  const partner = "partner-id-promise-all";
  const { Authorization } = await bareHeaders(server.limited, partner);
  const api = bareClient(server, Authorization as string);
  return timed(server, "bare openapi-fetch, Promise.all", partner, () =>
    settle(
      eids.map(async (eid) => {
        const status = await readBare(api, partner, eid);
        if (status !== 200) throw new Error(`HTTP ${status}`);
      }),
    ),
  );
}

/** p-retry as a user would set it from Section 8: 5 attempts, base 500 ms doubling, cap 30 s, jitter. */
async function bareRetry(server: BenchServer): Promise<Outcome> {
  const partner = "partner-id-p-retry";
  const { Authorization } = await bareHeaders(server.limited, partner);
  const api = bareClient(server, Authorization as string);
  return timed(server, "bare openapi-fetch + p-retry (exponential)", partner, () =>
    settle(
      eids.map((eid) =>
        pRetry(
          async () => {
            const status = await readBare(api, partner, eid);
            if (status === 429 || status >= 500) throw new Error(`HTTP ${status}`);
            if (status !== 200) throw new AbortError(`HTTP ${status}`);
          },
          { retries: 4, factor: 2, minTimeout: 500, maxTimeout: 30_000, randomize: true },
        ),
      ),
    ),
  );
}

/**
 * The anchor: the AWS SDK's adaptive retry mode (its client-side rate limiter, bench/aws-adaptive-
 * limiter.ts) around bare openapi-fetch, with everything else as this client does it: 8 calls in
 * flight (4 after a 429), 5 attempts, Section 8.3's 5–10 s wait after a 429.
 */
async function awsAdaptive(server: BenchServer): Promise<Outcome> {
  const partner = "partner-id-aws-adaptive";
  const { Authorization } = await bareHeaders(server.limited, partner);
  const api = bareClient(server, Authorization as string);
  const limiter = new AwsAdaptiveLimiter({ now: () => performance.now() / 1000, sleep });
  const slots = new ConcurrencyLimiter({ max: SPEC.maxConcurrency, reduced: SPEC.reducedConcurrency, quietMs: 60_000 });
  const read = async (eid: string): Promise<void> => {
    for (let attempt = 1; attempt <= SPEC.maxAttempts; attempt++) {
      const release = await slots.acquire();
      let status: number;
      try {
        await limiter.getSendToken();
        status = await readBare(api, partner, eid);
      } finally {
        release();
      }
      limiter.updateClientSendingRate(status === 429);
      if (status === 200) return;
      if (status !== 429) throw new Error(`HTTP ${status}`);
      slots.rateLimited();
      if (attempt < SPEC.maxAttempts) await sleep(rateLimitWait());
    }
    throw new Error("HTTP 429 after 5 attempts");
  };
  return timed(server, "bare openapi-fetch + AWS adaptive rate limiter (anchor)", partner, () =>
    settle(eids.map(read)),
  );
}

export async function goodput(server: BenchServer): Promise<Section> {
  const outcomes: Outcome[] = [];
  for (const run of [
    () => thisClient(server, "this client", "partner-id-client", true),
    () => awsAdaptive(server),
    () => bareRetry(server),
    () => bareAll(server),
    () => thisClient(server, "this client, ratePacing: false", "partner-id-client-unpaced", false),
  ]) {
    outcomes.push(await run());
    await sleep(1_000);
  }
  const [client, aws, retry] = outcomes as [Outcome, Outcome, Outcome, Outcome, Outcome];
  const rows = outcomes.map((o) => [
    o.name,
    fixed(o.seconds),
    ratio(o.seconds, IDEAL_S),
    String(o.refused),
    String(o.failed),
    String(o.admitted),
    o === client
      ? "—"
      : `${ratio(o.seconds, client.seconds)} time, ${o.refused ? ratio(o.refused, Math.max(1, client.refused)) : "0×"} 429s`,
  ]);
  const body = [
    `${GOODPUT_CALLS} × GET /events/{eid}/lookout_prediction_benchmark?type=capacity (this client: \`readBenchmark\`), all started at once; server: token bucket per partner, ${RATE} calls/s, burst ${BURST}, ${LATENCY_MS} ms latency on every answer, 429 without Retry-After past it. Ideal completion (N − burst) / rate = **${fixed(IDEAL_S)} s**. This client and the AWS anchor wait the specification's 5–10 s after each 429 (Section 8.3). Each variant ran once (a run lasts as long as the rate limit makes it), one after the other, each under its own partner id; 429s and admitted calls are the server's counts. Times include the sign-in.`,
    "",
    table(["variant", "completion s", "vs ideal", "429s received", "calls failed", "admitted", "vs this client"], rows),
    "",
    `AWS anchor: the AWS SDK's \`DefaultRateLimiter\` (adaptive retry mode), ported to bench/aws-adaptive-limiter.ts with its constants, around bare openapi-fetch with this client's concurrency and waits.`,
  ].join("\n");
  const targets = [
    { name: "goodput: calls failed", target: "0", measured: String(client.failed), met: client.failed === 0 },
    {
      name: "goodput: completion vs ideal 19.5 s",
      target: "≤ 1.5×",
      measured: `${fixed(client.seconds)} s = ${ratio(client.seconds, IDEAL_S)}`,
      met: client.seconds <= 1.5 * IDEAL_S,
    },
    {
      name: "goodput: 429s vs p-retry",
      target: "far fewer",
      measured: `${client.refused} vs ${retry.refused} (AWS anchor ${aws.refused})`,
      met: client.refused * 5 <= retry.refused,
    },
  ];
  return { title: "(b) Goodput under a per-partner rate limit", body, targets };
}
