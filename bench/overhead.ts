/**
 * (a) Overhead: the client against bare openapi-fetch, each variant in its own fresh
 * process (bench/cpu-probe.ts), paired and interleaved (bench/per-process.ts): a single-process
 * harness lets garbage one variant leaves be collected on another's time.
 *
 * - CPU per call with a stub `fetch` option (a canned Response, no network): the overlay is the
 *   client's figure less bare openapi-fetch's of the same pair;
 * - throughput over real HTTP against the bench server's fast mount at concurrency 1 and 8, as a
 *   ratio to bare openapi-fetch of the same pair; the client behind an undici transport beside it.
 *
 * Two references: bare openapi-fetch, and bare openapi-fetch with one AbortController and one
 * timer per request ("timed"), the least any client that bounds its attempts pays (Section 8.2).
 * `--before=<checkout>` adds the client built from another checkout's src/ ("client, before") to
 * the same pairs, to compare a change with what it replaces.
 *
 * The peers are section `peers` (bench/peers.ts), with the same probes.
 */
import { pathToFileURL } from "node:url";
import type { VariantName } from "./cpu-probe.ts";
import {
  figures,
  httpFigures,
  httpTable,
  PEERS_URL,
  paired,
  pairedRuns,
  ratioTo,
  showSpread,
  spreadOf,
  stubCpuTable,
} from "./per-process.ts";
import { type BenchServer, buildPackage, fixed, median, type Section, table } from "./support.ts";

/** Pairs of processes (`--pairs=N` overrides). */
const PAIRS = Number(process.argv.find((a) => a.startsWith("--pairs="))?.slice("--pairs=".length) ?? 5);
/** Per process: stub calls per sample; HTTP calls per sample at concurrency 1 (twice that at 8). */
const STUB_CALLS = 3_000;
const HTTP_CALLS = 400;
const SAMPLES = 3;
/**
 * Stub mode: samples taken after those {@link SAMPLES}, whose later half is the settled figure.
 * The first samples after the warm-up still pay the JIT's compiles (on its own threads, counted in
 * the process's CPU) and the heap's growth: in one process they ran 90–200 µs a call where later
 * ones settle at 70–90, so the early figure moves with how much code a variant has to compile and
 * with the machine's load more than with what a call costs. Both are shown; the early one stays
 * as it was, so figures from before stay comparable.
 */
const SETTLE_SAMPLES = 10;

/** Another checkout whose client runs beside this one's (`--before=<dir>`). */
const BEFORE = process.argv.find((a) => a.startsWith("--before="))?.slice("--before=".length);

/** The request path's targets (BENCHMARKS.md). */
/** Overlay CPU per call with a stub `fetch`, client ÷ bare openapi-fetch. */
const OVERLAY_TARGET_RATIO = 1.3;
const THROUGHPUT_TARGET = 0.95;
/** Against bare openapi-fetch with one AbortController and one timer per request. */
const TIMED_CPU_TARGET = 1.1;
const TIMED_THROUGHPUT_TARGET = 0.97;

const BARE: VariantName = "bare openapi-fetch";
const TIMED: VariantName = "bare openapi-fetch, timed";

export async function overhead(server: BenchServer): Promise<Section> {
  const clientFile = pathToFileURL(await buildPackage()).href;
  const beforeFile = BEFORE ? pathToFileURL(await buildPackage(BEFORE, "client-before")).href : undefined;
  const base = { clientFile, beforeFile, peersUrl: PEERS_URL, base: server.fast, samples: SAMPLES };
  const log = (line: string) => console.error(`bench a: ${line}`);
  const before: VariantName[] = beforeFile ? ["client, before"] : [];

  const stubVariants: VariantName[] = ["client", ...before, BARE, TIMED];
  const stubTask = { ...base, calls: STUB_CALLS, settleSamples: SETTLE_SAMPLES };
  const stubRuns = await pairedRuns(stubTask, "stub", stubVariants, PAIRS, log);
  const cpu = figures(stubRuns, (r) => r.cpuUs);
  const settled = figures(stubRuns, (r) => r.cpuSettledUs);
  const overlay = spreadOf(paired(cpu, "client", BARE, (a, b) => a - b));
  const overlayRatio = spreadOf(paired(cpu, "client", BARE, (a, b) => a / b));

  const httpVariants: VariantName[] = ["client", ...before, BARE, TIMED, "client, undici transport"];
  const httpRuns = await pairedRuns({ ...base, calls: HTTP_CALLS }, "http", httpVariants, PAIRS, log);
  const http = httpFigures(httpRuns);

  const timedRatio = (v: VariantName, f = cpu) => spreadOf(paired(f, v, TIMED, (a, b) => a / b));
  const targets = [
    ...["client", ...before].map((v) => ({
      name: `CPU per call, stub \`fetch\` option, ${v} ÷ bare openapi-fetch with one AbortController and timer per request`,
      target: `≤ ${TIMED_CPU_TARGET}×`,
      measured: `${showSpread(timedRatio(v as VariantName), 2, "×")}, median (min–max) of ${PAIRS} pairs`,
      met: timedRatio(v as VariantName).median <= TIMED_CPU_TARGET,
    })),
    ...["client", ...before].map((v) => ({
      name: `CPU per call, stub \`fetch\` option, settled (the later ${SETTLE_SAMPLES / 2} of ${SETTLE_SAMPLES} further samples), ${v} ÷ timed bare openapi-fetch`,
      target: `≤ ${TIMED_CPU_TARGET}×`,
      measured: `${showSpread(timedRatio(v as VariantName, settled), 2, "×")}, median (min–max) of ${PAIRS} pairs`,
      met: timedRatio(v as VariantName, settled).median <= TIMED_CPU_TARGET,
    })),
    ...["client", ...before].flatMap((v) =>
      (
        [
          [1, http.c1],
          [8, http.c8],
        ] as const
      ).map(([c, f]) => {
        const s = ratioTo(f, v as VariantName, TIMED);
        return {
          name: `HTTP throughput, ${v} ÷ timed bare openapi-fetch, concurrency ${c}`,
          target: `≥ ${TIMED_THROUGHPUT_TARGET}×`,
          measured: `${showSpread(s, 2, "×")}, median (min–max) of ${PAIRS} pairs`,
          met: s.median >= TIMED_THROUGHPUT_TARGET,
        };
      }),
    ),
    {
      name: "overlay CPU per call, stub `fetch` option, client ÷ bare openapi-fetch (one process each)",
      target: `≤ ${OVERLAY_TARGET_RATIO}×`,
      measured: `${showSpread(overlayRatio, 2, "×")} (${showSpread(overlay, 1, " µs")} a call), median (min–max) of ${PAIRS} pairs`,
      met: overlayRatio.median <= OVERLAY_TARGET_RATIO,
    },
    ...(
      [
        [1, http.c1],
        [8, http.c8],
      ] as const
    ).map(([c, f]) => {
      const s = ratioTo(f, "client", BARE);
      return {
        name: `HTTP throughput ÷ bare openapi-fetch, concurrency ${c} (one process each)`,
        target: `≥ ${THROUGHPUT_TARGET}×`,
        measured: `${showSpread(s, 2, "×")}, median (min–max) of ${PAIRS} pairs`,
        met: s.median >= THROUGHPUT_TARGET,
      };
    }),
  ];

  const micro = microCosts();
  const body = [
    `Each figure comes from its own fresh process (\`bench/cpu-probe.ts\`): ${PAIRS} pairs, each pair one process per variant, the order rotated from pair to pair; a process warms up, then takes ${SAMPLES} samples and reports their median. Ratios and differences are taken within a pair, then the median of the pairs and their spread (min–max) are shown.`,
    "",
    `**CPU per call with a stub \`fetch\` option** (answers a canned Response at once; ${STUB_CALLS} sequential calls of GET /events/{eid} per sample; \`process.cpuUsage\`, user + system, GC threads included):`,
    "",
    stubCpuTable(stubVariants, cpu, BARE),
    "",
    `Settled: the same processes go on for ${SETTLE_SAMPLES} more samples; the median of the later ${SETTLE_SAMPLES / 2} (from call ${Math.max(2_000, STUB_CALLS / 2) + (SAMPLES + SETTLE_SAMPLES / 2) * STUB_CALLS} of the process on) is what a long-running process pays per call, once the JIT's compiles and the heap's growth, which the first samples still pay, are behind:`,
    "",
    stubCpuTable(stubVariants, settled, BARE),
    "",
    `Overlay (client − bare openapi-fetch, pair by pair): **${showSpread(overlay, 1, " µs")}** per call, ${showSpread(overlayRatio, 2, "×")} bare; target ≤ ${OVERLAY_TARGET_RATIO}×. Against "${TIMED}" (one AbortController and one timer per request, at the client's default attempt timeout): ${showSpread(timedRatio("client"), 2, "×")}, settled ${showSpread(timedRatio("client", settled), 2, "×")}; target ≤ ${TIMED_CPU_TARGET}×.`,
    "",
    `**HTTP throughput** against the bench server's fast mount (its own process; answers at once, ~150-byte JSON): per sample ${HTTP_CALLS} calls at concurrency 1 and ${2 * HTTP_CALLS} at 8, alternating, after a warm-up of 500 calls.`,
    "",
    httpTable(httpVariants, http, BARE),
    "",
    "The CPU columns are the calling process's own CPU time per call in the same samples (the server's is not counted): on a shared machine it moves less with other load than calls/s does.",
    "",
    `"${TIMED}" is bare openapi-fetch given a signal of a new AbortController per request and a timer that would abort it: the least a client that bounds its attempts pays.${before.length ? ` "client, before" is the client built from ${BEFORE}.` : ""}`,
    "",
    '"client, undici transport" is the same client with undici\'s `request` and a keep-alive `Agent` behind the `fetch` option (bench/undici-fetch.ts) instead of the global fetch.',
    "",
    "What the Web API objects a request path builds cost on this machine, timed in the runner's own process (µs each, median of 5 × 20 000):",
    "",
    table(
      ["operation", "µs"],
      micro.map(([name, value]) => [name, fixed(value, 2)]),
    ),
  ].join("\n");
  return { title: "(a) Overhead", body, targets };
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
  void sink;
  return rows;
}
