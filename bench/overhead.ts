/**
 * (a) Overhead: the full client against bare openapi-fetch on the same transport and against plain
 * fetch, at concurrency 1 and 8, over real HTTP to the bench server; the same client behind an
 * undici `request`/`Agent` transport; and, with a stub transport (no network), the CPU time the
 * overlay adds per call.
 */
import createClient from "openapi-fetch";
import { request } from "undici";
import { operations } from "../generated/operations.ts";
import type { paths } from "../generated/schema.ts";
import { Redactor } from "../src/internal/redact.ts";
import { normalizeOptions } from "../src/options.ts";
import { credentialsPolicy, sessionPolicy } from "../src/transport/auth-policy.ts";
import { fetchTerminal } from "../src/transport/fetch-terminal.ts";
import { ConcurrencyLimiter } from "../src/transport/limiter.ts";
import { limiterPolicy } from "../src/transport/limiter-policy.ts";
import { logPolicy } from "../src/transport/log-policy.ts";
import { RatePacer } from "../src/transport/pacer.ts";
import { LocalPartner } from "../src/transport/partner-state.ts";
import { type CallContext, compose, firstAttempt, type Policy } from "../src/transport/policy.ts";
import { redirectPolicy } from "../src/transport/redirect-policy.ts";
import { retryPolicy } from "../src/transport/retry-policy.ts";
import { timeoutPolicy } from "../src/transport/timeout-policy.ts";
import {
  type BenchServer,
  bareHeaders,
  credentials,
  drive,
  fixed,
  importBuiltPackage,
  median,
  ratio,
  rotated,
  type Section,
  table,
} from "./support.ts";
import { undiciFetch } from "./undici-fetch.ts";

const PARTNER = "partner-id-bench";
const ROUNDS = 7;
const CALLS: Record<number, number> = { 1: 1_000, 8: 2_000 };

type Variant = { name: string; call: (i: number) => Promise<unknown> };

function expectOk(status: number, name: string): void {
  if (status !== 200) throw new Error(`${name}: HTTP ${status}`);
}

export async function overhead(server: BenchServer): Promise<Section> {
  const { createAudienceClient } = await importBuiltPackage();
  const headers = await bareHeaders(server.fast, PARTNER);
  const undici = undiciFetch();
  const client = createAudienceClient({ baseUrl: server.fast, credentials });
  const clientUndici = createAudienceClient({ baseUrl: server.fast, credentials, fetch: undici });
  const bare = createClient<paths>({
    baseUrl: server.fast,
    headers: { Authorization: headers.Authorization as string },
  });
  const eid = (i: number) => `evt-${i % 1000}`;

  const variants: Variant[] = [
    {
      name: "full client",
      call: async (i) =>
        expectOk((await client.GET("/events/{eid}", { params: { path: { eid: eid(i) } } })).response.status, "client"),
    },
    {
      name: "bare openapi-fetch",
      call: async (i) =>
        expectOk(
          (
            await bare.GET("/events/{eid}", {
              params: { path: { eid: eid(i) }, header: { "X-Preferred-Partner-Id": PARTNER } },
            })
          ).response.status,
          "bare",
        ),
    },
    {
      name: "plain fetch",
      call: async (i) => {
        const response = await fetch(`${server.fast}/events/${eid(i)}`, { headers });
        await response.json();
        expectOk(response.status, "fetch");
      },
    },
    {
      name: "full client, undici transport",
      call: async (i) =>
        expectOk(
          (await clientUndici.GET("/events/{eid}", { params: { path: { eid: eid(i) } } })).response.status,
          "client+undici",
        ),
    },
    {
      name: "plain undici request",
      call: async (i) => {
        const response = await request(`${server.fast}/events/${eid(i)}`, { headers });
        await response.body.json();
        expectOk(response.statusCode, "undici");
      },
    },
  ];

  // Warm-up: sign-ins, connections, JIT.
  for (const v of variants) await drive(200, 8, v.call);

  const perSecond = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const concurrency of [1, 8]) {
      for (const v of rotated(variants, round)) {
        const total = CALLS[concurrency] as number;
        const ms = await drive(total, concurrency, v.call);
        const key = `${v.name}@${concurrency}`;
        perSecond.set(key, [...(perSecond.get(key) ?? []), (total * 1000) / ms]);
      }
    }
  }
  await undici.close();
  const m = (name: string, c: number) => median(perSecond.get(`${name}@${c}`) ?? []);

  const rows = [1, 8].flatMap((c) =>
    variants.map((v) => [
      String(c),
      v.name,
      fixed(m(v.name, c), 0),
      ratio(m(v.name, c), m("bare openapi-fetch", c)),
      ratio(m(v.name, c), m("plain fetch", c)),
    ]),
  );
  const stub = await stubOverhead();
  const targets = [1, 8].map((c) => ({
    name: `throughput vs bare openapi-fetch, concurrency ${c}`,
    target: "≥ 0.90×",
    measured: ratio(m("full client", c), m("bare openapi-fetch", c)),
    met: m("full client", c) / m("bare openapi-fetch", c) >= 0.9,
  }));
  targets.push({
    name: "CPU the overlay adds per call (stub transport)",
    target: "≤ 15 µs",
    measured: `${fixed(stub.overlayUs)} µs`,
    met: stub.overlayUs <= 15,
  });

  const undiciGain = [1, 8]
    .map((c) => `${ratio(m("full client, undici transport", c), m("full client", c))} at concurrency ${c}`)
    .join(", ");
  const body = [
    `Calls: GET /events/{eid} on the fast mount (answers at once, ~150-byte JSON), ${CALLS[1]} calls per variant per round at concurrency 1 and ${CALLS[8]} at 8; ${ROUNDS} rounds, variants interleaved with the order rotated each round, after a warm-up of 200 calls each. Figures are medians of the rounds.`,
    "",
    table(["concurrency", "variant", "calls/s", "vs bare openapi-fetch", "vs plain fetch"], rows),
    "",
    `undici \`request\` + keep-alive \`Agent\` behind the \`fetch\` option (bench/undici-fetch.ts) vs the global fetch, same full client: ${undiciGain}.`,
    "",
    stub.body,
  ].join("\n");
  return { title: "(a) Overhead", body, targets };
}

/** CPU per call with a `fetch` that returns a canned Response: the overlay's own cost, no network. */
async function stubOverhead(): Promise<{ overlayUs: number; body: string }> {
  const { createAudienceClient } = await importBuiltPackage();
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const exp = Math.floor(Date.now() / 1000) + 3600;
  const accessToken = `${b64({ alg: "none" })}.${b64({ exp, token_use: "access" })}.sig`;
  const tokens = JSON.stringify({
    AccessToken: accessToken,
    IdToken: `${b64({ alg: "none" })}.${b64({ exp, groups: [PARTNER] })}.sig`,
    RefreshToken: "r",
  });
  const event = JSON.stringify({ id: "evt-1", name: "Event 1", frontend_status: "DEFAULT", capacity: 1200 });
  const stub = async (req: Request) =>
    new Response(req.url.endsWith("/auth") ? tokens : event, {
      status: 200,
      headers: { "content-type": "application/json", "x-request-id": "stub" },
    });
  const base = "https://api.example.test/api/v3";
  const client = createAudienceClient({ baseUrl: base, credentials, fetch: stub });
  const clientNoPacing = createAudienceClient({ baseUrl: base, credentials, fetch: stub, ratePacing: false });
  const bare = createClient<paths>({ baseUrl: base, fetch: stub, headers: { Authorization: `Bearer ${accessToken}` } });
  const params = (i: number) => ({ params: { path: { eid: `evt-${i % 100}` } } });
  const variants: Variant[] = [
    { name: "full client", call: (i) => client.GET("/events/{eid}", params(i)) },
    { name: "full client, ratePacing: false", call: (i) => clientNoPacing.GET("/events/{eid}", params(i)) },
    {
      name: "bare openapi-fetch",
      call: (i) =>
        bare.GET("/events/{eid}", {
          params: { path: { eid: `evt-${i % 100}` }, header: { "X-Preferred-Partner-Id": PARTNER } },
        }),
    },
  ];
  const N = 4_000;
  for (const v of variants) for (let i = 0; i < 1_000; i++) await v.call(i);
  const cpu = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const v of rotated(variants, round)) {
      const before = process.cpuUsage();
      for (let i = 0; i < N; i++) await v.call(i);
      const used = process.cpuUsage(before);
      cpu.set(v.name, [...(cpu.get(v.name) ?? []), (used.user + used.system) / N]);
    }
  }
  const us = (name: string) => median(cpu.get(name) ?? []);
  const overlayUs = us("full client") - us("bare openapi-fetch");
  const micro = microCosts();
  const policies = await policyCosts();
  const body = [
    `**CPU per call with a stub transport** (\`fetch\` option returning a canned Response; ${N} sequential calls per variant per round, ${ROUNDS} rounds, process CPU time from \`process.cpuUsage\`):`,
    "",
    table(
      ["variant", "CPU µs/call", "vs bare openapi-fetch"],
      variants.map((v) => [v.name, fixed(us(v.name)), ratio(us(v.name), us("bare openapi-fetch"))]),
    ),
    "",
    `Overlay (full client − bare openapi-fetch): **${fixed(overlayUs)} µs per call**. Full client with and without pacing differ by ${fixed(us("full client") - us("full client, ratePacing: false"))} µs here, which is round-to-round noise: the pacer's own calls, timed alone below, cost ${fixed(micro.find(([n]) => n.startsWith("RatePacer"))?.[1] ?? Number.NaN, 2)} µs while no 429 has been seen.`,
    "",
    "Where the overlay's time goes, policy by policy: each policy of src/transport/create-transport.ts alone in front of `fetchTerminal` and the stub, CPU µs per call above the terminal alone (5 interleaved rounds of 3 000 calls, medians; the terminal's own line is above reading the stub directly; single lines are noisy to ±10 µs):",
    "",
    table(
      ["policy", "CPU µs/call"],
      policies.map(([name, value]) => [name, fixed(value)]),
    ),
    "",
    `The terminal does for the client what openapi-fetch and the stub do for bare openapi-fetch (one Request, the body read and parsed once), plus one thing bare does not: its Request follows the attempt's AbortSignal (per-attempt timeout and the caller's abort), which undici implements with a listener, a WeakRef and a FinalizationRegistry entry per Request — "follow an AbortSignal" below, and garbage-collector time on top. Bare openapi-fetch pays the same inside the real \`fetch\` (it copies the Request and follows its signal), which is why the throughput ratios above are near 1 while the stub figure is not. The policies other than the terminal add ${fixed(policies[policies.length - 1]?.[1] ?? Number.NaN)} µs together; the rest is validation and hooks (create-client.ts) and the call's bookkeeping (create-transport.ts).`,
    "",
    "And what the Web API objects those policies build cost on this machine (µs each, median of 5 × 20 000):",
    "",
    table(
      ["operation", "µs"],
      micro.map(([name, value]) => [name, fixed(value, 2)]),
    ),
  ].join("\n");
  return { overlayUs, body };
}

/**
 * The per-call building blocks of the policy pipeline, timed alone. Every iteration starts from
 * fresh objects: a Request made from another Request follows its signal, so reusing one source
 * would time a growing listener list instead.
 */
function microCosts(): Array<[string, number]> {
  const url = "https://api.example.test/api/v3/events/evt-1";
  const init = { headers: { accept: "application/json" } };
  const body = new TextEncoder().encode(
    JSON.stringify({ id: "evt-1", name: "Event 1", frontend_status: "DEFAULT", capacity: 1200 }),
  );
  let sink: unknown;
  const time = (fn: () => unknown): number => {
    const samples: number[] = [];
    for (let r = 0; r < 5; r++) {
      const started = performance.now();
      for (let i = 0; i < 20_000; i++) sink = fn();
      samples.push(((performance.now() - started) * 1000) / 20_000);
    }
    return median(samples);
  };
  const request = time(() => new Request(url, init));
  const derived: Array<[string, () => unknown]> = [
    ["request.clone()", () => new Request(url, init).clone()],
    [
      "new Request(request, { headers: new Headers(request.headers) })",
      () => {
        const r = new Request(url, init);
        return new Request(r, { headers: new Headers(r.headers) });
      },
    ],
    [
      "new Response(bytes, { headers })",
      () => new Response(body, { status: 200, headers: { "content-type": "application/json" } }),
    ],
  ];
  const rows: Array<[string, number]> = [["new Request(url, { headers })", request]];
  for (const [name, fn] of derived) rows.push([name, time(fn) - (name.startsWith("new Response") ? 0 : request)]);
  rows.push([
    "follow an AbortSignal: new Request(url, { headers, signal }) − new Request(url, { headers })",
    time(() => new Request(url, { ...init, signal: new AbortController().signal })) - request,
  ]);
  rows.push([
    "AbortSignal.any([a, b])",
    time(() => AbortSignal.any([new AbortController().signal, new AbortController().signal])) -
      2 * time(() => new AbortController().signal),
  ]);
  rows.push(["JSON.parse(new TextDecoder().decode(bytes))", time(() => JSON.parse(new TextDecoder().decode(body)))]);
  rows.push(["setTimeout + clearTimeout", time(() => clearTimeout(setTimeout(() => undefined, 30_000)))]);
  const pacer = new RatePacer();
  rows.push([
    "RatePacer take() + admitted(), no 429 seen (pacing off)",
    time(() => {
      pacer.take();
      pacer.admitted();
    }),
  ]);
  void sink;
  return rows;
}

/** Each policy alone between a fresh Request and fetchTerminal over the stub: its CPU per call. */
async function policyCosts(): Promise<Array<[string, number]>> {
  const config = normalizeOptions({ baseUrl: "https://api.example.test/api/v3", credentials });
  const body = JSON.stringify({ id: "evt-1", name: "Event 1", frontend_status: "DEFAULT", capacity: 1200 });
  const stub = async () => new Response(body, { status: 200, headers: { "content-type": "application/json" } });
  const limiter = new ConcurrencyLimiter({ max: 8, reduced: 4, quietMs: 60_000 });
  const pacer = new RatePacer();
  const url = `${config.baseUrl.href}/events/evt-1`;
  const op = operations.find((o) => o.method === "GET" && o.path === "/events/{eid}");
  if (!op) throw new Error("GET /events/{eid} is not in the operation table");
  const ctxOf = (): CallContext => ({
    url,
    method: "GET",
    headers: new Headers({ accept: "application/json" }),
    body: null,
    op,
    call: { op, parseJson: true },
    authenticated: true,
    secretBody: false,
    lane: "interactive",
    deadlineAt: undefined,
    passThrough: undefined,
    fetch: undefined,
    requestClass: undefined,
    expectJson: true,
    signal: undefined,
    startedAt: 0,
    path: op.path,
    attempt: 0,
    tokenUsed: undefined,
    partnerId: undefined,
    retryAfterMs: undefined,
    mayHaveSucceeded: false,
    record: () => ({
      method: "GET",
      path: "/events/{eid}",
      environment: "",
      partnerId: undefined,
      request: { method: "GET", url, headers: {} },
      attempts: 1,
      retryAfterMs: undefined,
      mayHaveSucceeded: false,
      requestId: undefined,
    }),
  });
  const through = (list: Policy[]) => {
    const run = compose(list, fetchTerminal(stub, undefined, config.maxResponseBytes));
    return () => {
      const ctx = ctxOf();
      return run(firstAttempt(ctx), ctx);
    };
  };
  const authorization = { accessToken: "token-value", partnerId: "partner-id-bench" };
  const session = () => ({ current: () => authorization, authorize: async () => authorization });
  const list: Array<[string, Policy]> = [
    ["log", logPolicy({})],
    [
      "retry",
      retryPolicy({
        config,
        logger: {},
        redactor: new Redactor(),
        reauthenticate: async () => undefined,
        writeCheck: () => undefined,
      }),
    ],
    ["session (token and partner known)", sessionPolicy(session)],
    ["limiter + pacer", limiterPolicy({ partnerFor: () => new LocalPartner(limiter, pacer) })],
    ["credentials (two headers set)", credentialsPolicy(session)],
    ["timeout (AbortController, timer, caller's signal followed)", timeoutPolicy(30_000)],
    ["redirect", redirectPolicy([config.baseUrl.origin], 5)],
  ];
  const variants: Array<[string, () => Promise<Response>]> = [
    ["stub alone", () => stub()],
    ["terminal", through([])],
    ...list.map(([name, policy]): [string, () => Promise<Response>] => [name, through([policy])]),
    ["all", through(list.map(([, p]) => p))],
  ];
  const N = 3_000;
  const samples = new Map<string, number[]>();
  const consume = async (response: Response) => {
    if (!response.bodyUsed) await response.arrayBuffer();
  };
  for (const [, run] of variants) for (let i = 0; i < 500; i++) await consume(await run());
  for (let round = 0; round < 5; round++) {
    for (const [name, run] of rotated(variants, round)) {
      const before = process.cpuUsage();
      for (let i = 0; i < N; i++) await consume(await run());
      const used = process.cpuUsage(before);
      samples.set(name, [...(samples.get(name) ?? []), (used.user + used.system) / N]);
    }
  }
  const us = (name: string) => median(samples.get(name) ?? []);
  const rows: Array<[string, number]> = [
    ["fetchTerminal (one Request, the body read and parsed once)", us("terminal") - us("stub alone")],
  ];
  for (const [name] of list) rows.push([name, us(name) - us("terminal")]);
  rows.push([`all ${list.length} policies together`, us("all") - us("terminal")]);
  return rows;
}
