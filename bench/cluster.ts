/**
 * (f) Cluster: one partner's 400 calls shared by N processes. Each process is
 * bench/cluster-worker.ts, a real `createAudienceClient` with the group's credentials and partner,
 * forked through tsx; the limited mount of the bench server (20 calls/s, burst 10, 429 without
 * Retry-After, so the client waits Section 8.3's 5–10 s) counts per partner the 429s, the calls in
 * flight, the sign-ins and refreshes. Two variants side by side: `uncoordinated` (today's client:
 * every process on its own) and `redis` (`redisCoordinator` on a redis-server of the bench's own).
 *
 * Scenarios: N = 1, 2, 4, 8; 8 processes with one joining every second; 4 processes with access
 * tokens living 4 s; 4 processes with Redis killed 5 s in and started again 5 s later. Every run
 * uses a partner id of its own (a full bucket, a fresh key prefix). `--runs=3` runs each scenario
 * three times and reports the worst of each figure; the default is one run. `--scenarios=n1,kill`
 * runs only those (keys: n1, n2, n4, n8, join, short, kill). A run that is not over
 * after `SCENARIO_TIMEOUT_MS` has its workers killed and their calls counted as failed.
 *
 * Also: Redis commands per call when nothing waits (50 sequential calls by one process on the
 * fast mount, `INFO commandstats` before and after).
 */
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { WorkerConfig, WorkerMessage } from "./cluster-worker.ts";
import { type BenchRedis, redisUnavailable, startRedis } from "./redis-server.ts";
import { BURST, GOODPUT_CALLS, IDEAL_S, LATENCY_MS, QUIET_GRACE_MS, RATE } from "./scenario.ts";
import { type BenchServer, fixed, type PartnerCounts, ratio, rotated, type Section, sleep, table } from "./support.ts";

const SCENARIO_TIMEOUT_MS = 120_000;
/** Forking N tsx processes on a loaded 2-core machine takes a while; bounded all the same. */
const READY_TIMEOUT_MS = 90_000;
const SHORT_TOKEN_MS = 4_000;
const REDIS_KILL_AT_MS = 5_000;
const REDIS_DOWN_MS = 5_000;
const ROUND_TRIP_CALLS = 50;

const runs = Math.max(1, Number(process.argv.find((a) => a.startsWith("--runs="))?.slice("--runs=".length) ?? 1) || 1);
/** `--scenarios=n1,kill` runs only those (keys of `SCENARIOS`); the default is all. */
const picked = process.argv
  .find((a) => a.startsWith("--scenarios="))
  ?.slice("--scenarios=".length)
  .split(",");
const workerFile = fileURLToPath(new URL("./cluster-worker.ts", import.meta.url));

type Variant = "uncoordinated" | "redis";
/** `--variants=redis` runs only those; the default is both. */
const pickedVariants = process.argv
  .find((a) => a.startsWith("--variants="))
  ?.slice("--variants=".length)
  .split(",");
const VARIANTS: readonly Variant[] = (["uncoordinated", "redis"] as const).filter(
  (v) => !pickedVariants || pickedVariants.includes(v),
);

interface Scenario {
  readonly key: string;
  readonly name: string;
  readonly processes: number;
  /** Process i is told to start i × this after the first. */
  readonly joinEveryMs?: number;
  readonly tokenTtlMs?: number;
  readonly killRedis?: boolean;
}

const ALL_SCENARIOS: readonly Scenario[] = [
  { key: "n1", name: "N = 1", processes: 1 },
  { key: "n2", name: "N = 2", processes: 2 },
  { key: "n4", name: "N = 4", processes: 4 },
  { key: "n8", name: "N = 8", processes: 8 },
  { key: "join", name: "8, one joining every 1 s", processes: 8, joinEveryMs: 1_000 },
  {
    key: "short",
    name: `N = 4, access tokens live ${SHORT_TOKEN_MS / 1000} s`,
    processes: 4,
    tokenTtlMs: SHORT_TOKEN_MS,
  },
  {
    key: "kill",
    name: `N = 4, Redis killed ${REDIS_KILL_AT_MS / 1000} s in, back ${REDIS_DOWN_MS / 1000} s later`,
    processes: 4,
    killRedis: true,
  },
];
const SCENARIOS = ALL_SCENARIOS.filter((s) => !picked || picked.includes(s.key));

interface Run {
  /** First go to last done. */
  readonly wholeS: number;
  /** The longest of the processes' own go-to-done times. */
  readonly slowestS: number;
  readonly failed: number;
  readonly timedOut: boolean;
  readonly errors: readonly string[];
  readonly counts: PartnerCounts;
  /** Redis killed only: commands the restarted Redis served by the end of the run, and the calls sent meanwhile. */
  readonly afterRestart?: { readonly commands: number; readonly calls: number; readonly byName: string };
}

/** Why a variant has no figures: the Redis coordinator or redis-server is missing. */
type Outcome = Run | { readonly unavailable: string };

let partnerSeq = 0;

interface Worker {
  readonly child: ChildProcess;
  readonly ready: Promise<WorkerMessage>;
  readonly done: Promise<Extract<WorkerMessage, { type: "done" }> | undefined>;
}

function forkWorker(config: WorkerConfig): Worker {
  const child = fork(workerFile, [JSON.stringify(config)], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const ready = new Promise<WorkerMessage>((resolve, reject) => {
    child.on("message", (m: WorkerMessage) => {
      if (m.type === "ready" || m.type === "unavailable") resolve(m);
    });
    child.once("exit", (code) => reject(new Error(`a cluster worker exited (${code}) before it was ready`)));
  });
  const done = new Promise<Extract<WorkerMessage, { type: "done" }> | undefined>((resolve) => {
    child.on("message", (m: WorkerMessage) => {
      if (m.type === "done") resolve(m);
    });
    child.once("exit", () => resolve(undefined)); // after done this changes nothing
  });
  ready.catch(() => {}); // awaited below; a late rejection must not go unhandled
  return { child, ready, done };
}

function killAll(workers: readonly Worker[]): void {
  for (const { child } of workers) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
}

/** Resolves with `promise`, or with `fallback` after `ms`. */
async function within<T, F>(promise: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<F>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function runScenario(
  server: BenchServer,
  redis: BenchRedis | undefined,
  variant: Variant,
  scenario: Scenario,
): Promise<Outcome> {
  const partner = `partner-id-cluster-${++partnerSeq}-${variant}-${scenario.key}`;
  if (variant === "redis" && !redis) return { unavailable: redisUnavailable() ?? "no redis-server" };
  if (scenario.tokenTtlMs) await server.configure(partner, scenario.tokenTtlMs);
  const share = GOODPUT_CALLS / scenario.processes;
  const workers = Array.from({ length: scenario.processes }, (_, i) =>
    forkWorker({
      baseUrl: server.limited,
      partner,
      first: i * share,
      calls: share,
      sequential: false,
      warmUp: false,
      ...(variant === "redis" && redis ? { redis: { url: redis.url, keyPrefix: `bench:${partner}:` } } : {}),
    }),
  );
  const timers: NodeJS.Timeout[] = [];
  let redisDown: Promise<void> | undefined;
  let callsAtRestart = 0;
  try {
    const ready = await within(Promise.all(workers.map((w) => w.ready)), READY_TIMEOUT_MS, undefined);
    if (!ready) throw new Error(`cluster workers not ready within ${READY_TIMEOUT_MS / 1000} s`);
    const unavailable = ready.find((m) => m.type === "unavailable");
    if (unavailable?.type === "unavailable") return { unavailable: unavailable.why };

    const started = performance.now();
    const finishedAt: number[] = [];
    workers.forEach((w, i) => {
      const go = () => w.child.send({ type: "go" });
      if (scenario.joinEveryMs && i > 0) timers.push(setTimeout(go, i * scenario.joinEveryMs));
      else go();
      void w.done.then(() => finishedAt.push(performance.now()));
    });
    if (scenario.killRedis && redis) {
      redisDown = (async () => {
        await sleep(REDIS_KILL_AT_MS);
        await redis.kill();
        await sleep(REDIS_DOWN_MS);
        await redis.restart();
        const at = await server.counts(partner);
        callsAtRestart = at.admitted + at.refused;
      })();
    }
    const dones = await within(Promise.all(workers.map((w) => w.done)), SCENARIO_TIMEOUT_MS, "timeout" as const);
    const timedOut = dones === "timeout";
    if (timedOut) killAll(workers);
    const reports = timedOut ? await Promise.all(workers.map((w) => w.done)) : dones;
    const end = timedOut ? started + SCENARIO_TIMEOUT_MS : Math.max(started, ...finishedAt);
    await redisDown;
    const counts = await server.counts(partner);
    const afterRestart =
      scenario.killRedis && redis
        ? await redis.commandCalls().then((calls) => ({
            commands: sum(calls),
            calls: counts.admitted + counts.refused - callsAtRestart,
            byName: byName(calls),
          }))
        : undefined;
    const failed = reports.reduce((sum, r) => sum + (r ? r.failed : share), 0);
    const errors = [
      ...new Set(reports.flatMap((r) => (r ? r.errors : ["the worker was killed or crashed before it finished"]))),
    ];
    return {
      wholeS: (end - started) / 1000,
      slowestS: Math.max(...reports.map((r) => (r ? r.ms : SCENARIO_TIMEOUT_MS))) / 1000,
      failed,
      timedOut,
      errors,
      counts,
      ...(afterRestart === undefined ? {} : { afterRestart }),
    };
  } finally {
    for (const t of timers) clearTimeout(t);
    killAll(workers);
    await redisDown?.catch(() => {});
    if (redis && !redis.running) await redis.restart();
  }
}

/** Redis commands per call of one process making sequential calls on the fast mount (nothing waits). */
interface RoundTrips {
  /** Ms per call of the uncoordinated process, or why there is none. */
  readonly plainMs: number | string;
  readonly redis:
    | {
        /** Commands the process sent (round trips, unless it pipelines), per call, and by name. */
        readonly perCall: number;
        readonly byCommand: string;
        /** Commands its Lua scripts ran inside Redis (no round trip each). */
        readonly inScriptsPerCall: number;
        readonly inScripts: string;
        readonly msPerCall: number;
      }
    | { readonly unavailable: string };
}

async function sequentialRun(
  server: BenchServer,
  redis: BenchRedis | undefined,
  variant: Variant,
  between: (phase: "before" | "after") => Promise<void>,
): Promise<number | string> {
  const partner = `partner-id-cluster-${++partnerSeq}-${variant}-sequential`;
  const worker = forkWorker({
    baseUrl: server.fast,
    partner,
    first: 0,
    calls: ROUND_TRIP_CALLS,
    sequential: true,
    warmUp: true,
    ...(variant === "redis" && redis ? { redis: { url: redis.url, keyPrefix: `bench:${partner}:` } } : {}),
  });
  try {
    const ready = await within(worker.ready, READY_TIMEOUT_MS, undefined);
    if (!ready) throw new Error("the round-trip worker was not ready in time");
    if (ready.type === "unavailable") return ready.why;
    await between("before");
    worker.child.send({ type: "go" });
    const done = await within(worker.done, SCENARIO_TIMEOUT_MS, undefined);
    if (!done) return "the round-trip worker did not finish";
    await between("after");
    if (done.failed) return `${done.failed} calls failed: ${done.errors.join("; ")}`;
    return done.ms / ROUND_TRIP_CALLS;
  } finally {
    killAll([worker]);
  }
}

const byName = (calls: Map<string, number>): string =>
  [...calls].map(([name, n]) => `${name} ${n}`).join(", ") || "none";
const sum = (calls: Map<string, number>): number => [...calls.values()].reduce((a, b) => a + b, 0);

async function roundTrips(server: BenchServer, redis: BenchRedis | undefined): Promise<RoundTrips> {
  const plainMs = await sequentialRun(server, undefined, "uncoordinated", async () => {});
  if (!redis) return { plainMs, redis: { unavailable: redisUnavailable() ?? "no redis-server" } };
  let watch: Awaited<ReturnType<BenchRedis["monitor"]>> | undefined;
  let seen = { sent: new Map<string, number>(), inScripts: new Map<string, number>() };
  const shared = await sequentialRun(server, redis, "redis", async (phase) => {
    if (phase === "before") watch = await redis.monitor();
    else {
      await sleep(200); // a release sent after the last answer
      if (watch) seen = await watch.stop();
    }
  });
  if (typeof shared === "string") return { plainMs, redis: { unavailable: shared } };
  return {
    plainMs,
    redis: {
      perCall: sum(seen.sent) / ROUND_TRIP_CALLS,
      byCommand: byName(seen.sent),
      inScriptsPerCall: sum(seen.inScripts) / ROUND_TRIP_CALLS,
      inScripts: byName(seen.inScripts),
      msPerCall: shared,
    },
  };
}

const perCall = (r: NonNullable<Run["afterRestart"]>) => r.commands / Math.max(1, r.calls);

/** The worst of each figure over a scenario's runs. */
function worst(all: readonly Run[]): Run {
  const max = (f: (r: Run) => number) => Math.max(...all.map(f));
  const c = (f: (k: PartnerCounts) => number) => max((r) => f(r.counts));
  const restarts = all.flatMap((r) => (r.afterRestart === undefined ? [] : [r.afterRestart]));
  return {
    wholeS: max((r) => r.wholeS),
    slowestS: max((r) => r.slowestS),
    failed: max((r) => r.failed),
    timedOut: all.some((r) => r.timedOut),
    errors: [...new Set(all.flatMap((r) => r.errors))],
    counts: {
      admitted: c((k) => k.admitted),
      refused: c((k) => k.refused),
      unauthorized: c((k) => k.unauthorized),
      maxInFlight: c((k) => k.maxInFlight),
      maxInFlightQuiet: c((k) => k.maxInFlightQuiet),
      signIns: c((k) => k.signIns),
      refreshes: c((k) => k.refreshes),
    },
    // The run whose restarted Redis saw the fewest commands per call.
    ...(restarts.length ? { afterRestart: restarts.reduce((a, b) => (perCall(b) < perCall(a) ? b : a)) } : {}),
  };
}

const seconds = (s: number, timedOut: boolean) =>
  timedOut ? `> ${SCENARIO_TIMEOUT_MS / 1000} s` : `${fixed(s)} s (${ratio(s, IDEAL_S)})`;

/** The group's refreshes allowed in `wholeS`: one per token, each refreshed at half its lifetime, and one to spare. */
const refreshBound = (wholeS: number) => Math.floor(wholeS / (SHORT_TOKEN_MS / 2000)) + 1;

type Results = ReadonlyMap<string, Outcome | undefined>;
const resultKey = (variant: Variant, scenario: Scenario) => `${variant}/${scenario.key}`;

function variantTable(variant: Variant, results: Results): string {
  const rows = SCENARIOS.map((s) => {
    const r = results.get(resultKey(variant, s));
    if (!r) return [s.name, "not run (uses no Redis)", "", "", "", "", "", "", ""];
    if ("unavailable" in r) return [s.name, "n/a", "n/a", "n/a", "n/a", "n/a", "n/a", "n/a", "n/a"];
    const k = r.counts;
    return [
      s.name,
      seconds(r.wholeS, r.timedOut),
      r.timedOut ? "—" : ratio(r.slowestS, IDEAL_S),
      String(k.refused),
      `${k.maxInFlight} (${k.maxInFlightQuiet})`,
      String(k.signIns),
      String(k.refreshes),
      String(k.unauthorized),
      String(r.failed),
    ];
  });
  return table(
    [
      "scenario",
      "whole run",
      "slowest process",
      "429s",
      "max in flight at the server (in a quiet period)",
      "sign-ins",
      "refreshes",
      "401s",
      "failed calls",
    ],
    rows,
  );
}

interface Check {
  readonly name: string;
  readonly target: string;
  readonly measure: (results: Results, variant: Variant) => { measured: string; met: boolean } | undefined;
}

const runsOf = (results: Results, variant: Variant, keys: readonly string[]) =>
  SCENARIOS.filter((s) => keys.includes(s.key)).map((s) => [s, results.get(resultKey(variant, s))] as const);

/** The figures of one scenario, when it ran. */
function runOf(results: Results, variant: Variant, key: string): Run | undefined {
  const r = results.get(`${variant}/${key}`);
  return r && !("unavailable" in r) ? r : undefined;
}

/** A figure over scenarios: the worst value and where; undefined when a scenario has no figures. */
function worstOf(
  results: Results,
  variant: Variant,
  keys: readonly string[],
  value: (r: Run) => number,
): { value: number; where: string } | undefined {
  let found: { value: number; where: string } | undefined;
  for (const [s, r] of runsOf(results, variant, keys)) {
    if (!r || "unavailable" in r) return undefined;
    const v = value(r);
    if (!found || v > found.value) found = { value: v, where: s.name };
  }
  return found;
}

const N = ["n1", "n2", "n4", "n8"];
const upTo = (
  name: string,
  target: string,
  keys: readonly string[],
  value: (r: Run) => number,
  limit: number,
  show: (v: number) => string = String,
): Check => ({
  name,
  target,
  measure: (results, variant) => {
    const w = worstOf(results, variant, keys, value);
    return w && { measured: `${show(w.value)} (${w.where})`, met: w.value <= limit };
  },
});
const times = (v: number) => ratio(v * IDEAL_S, IDEAL_S);

const CHECKS: readonly Check[] = [
  upTo(
    "cluster N = 1, 2, 4, 8: whole run and slowest process vs ideal",
    "≤ 1.2×",
    N,
    (r) => (r.timedOut ? Number.POSITIVE_INFINITY : Math.max(r.wholeS, r.slowestS) / IDEAL_S),
    1.2,
    times,
  ),
  upTo("cluster N = 1, 2, 4, 8: 429s", "≤ 12", N, (r) => r.counts.refused, 12),
  {
    name: "cluster N = 1, 2, 4, 8: in flight at the server",
    target: "≤ 8 (≤ 4 in a quiet period)",
    measure: (results, variant) => {
      const all = worstOf(results, variant, N, (r) => r.counts.maxInFlight);
      const quiet = worstOf(results, variant, N, (r) => r.counts.maxInFlightQuiet);
      return (
        all &&
        quiet && {
          measured: `${all.value} (${all.where}); quiet ${quiet.value} (${quiet.where})`,
          met: all.value <= 8 && quiet.value <= 4,
        }
      );
    },
  },
  upTo("cluster N = 1, 2, 4, 8: sign-ins for the group", "1", N, (r) => r.counts.signIns, 1),
  upTo("cluster N = 1, 2, 4, 8: failed calls", "0", N, (r) => r.failed, 0),
  upTo(
    "cluster, one process joining every 1 s: whole run and slowest vs ideal",
    "≤ 1.2×",
    ["join"],
    (r) => (r.timedOut ? Number.POSITIVE_INFINITY : Math.max(r.wholeS, r.slowestS) / IDEAL_S),
    1.2,
    times,
  ),
  upTo("cluster, one process joining every 1 s: 429s", "≤ 12", ["join"], (r) => r.counts.refused, 12),
  {
    name: `cluster, tokens living ${SHORT_TOKEN_MS / 1000} s: refreshes for the group`,
    target: "one per token lifetime (each token refreshed once, at half its life)",
    measure: (results, variant) => {
      const r = runOf(results, variant, "short");
      if (!r) return undefined;
      const bound = refreshBound(r.wholeS);
      return {
        measured: `${r.counts.refreshes} in ${fixed(r.wholeS)} s (≤ ${bound}), ${r.counts.unauthorized} × 401`,
        met: r.counts.refreshes <= bound && r.counts.unauthorized === 0,
      };
    },
  },
  {
    name: "cluster, Redis killed mid-run: failed calls, time, 429s, shared mode resumes",
    target: "0, ≤ 1.5×, ≤ 20, yes (≥ 1 Redis command per 2 calls after the restart)",
    measure: (results, variant) => {
      const r = runOf(results, variant, "kill");
      if (!r) return undefined;
      const x = Math.max(r.wholeS, r.slowestS) / IDEAL_S;
      // Shared mode takes a turn in Redis for every call: at least one command per two calls sent
      // after the restart leaves room for the time a process takes to notice Redis is back.
      const after = r.afterRestart ?? { commands: 0, calls: 0, byName: "none" };
      const resumed = after.commands > 0 && perCall(after) >= 0.5;
      return {
        measured: `${r.failed}, ${r.timedOut ? "timed out" : times(x)}, ${r.counts.refused}, ${resumed ? "yes" : "no"} (${after.commands} Redis commands for ${after.calls} calls sent after the restart: ${after.byName})`,
        met: r.failed === 0 && !r.timedOut && x <= 1.5 && r.counts.refused <= 20 && resumed,
      };
    },
  },
];

export async function cluster(server: BenchServer): Promise<Section> {
  const why = redisUnavailable();
  const redis = why ? undefined : await startRedis();
  const results = new Map<string, Outcome | undefined>();
  const perRun = new Map<string, Run[]>();
  let trips: RoundTrips;
  try {
    const unavailable = new Map<Variant, string>();
    for (let round = 0; round < runs; round++) {
      for (const scenario of SCENARIOS) {
        for (const variant of rotated(VARIANTS, round)) {
          if (variant === "uncoordinated" && scenario.killRedis) continue;
          const key = resultKey(variant, scenario);
          const known = unavailable.get(variant);
          if (known) {
            results.set(key, { unavailable: known });
            continue;
          }
          const outcome = await runScenario(server, redis, variant, scenario);
          if ("unavailable" in outcome) {
            console.error(`bench: cluster ${variant}: ${outcome.unavailable}`);
            unavailable.set(variant, outcome.unavailable);
            results.set(key, outcome);
            continue;
          }
          const list = perRun.get(key) ?? [];
          list.push(outcome);
          perRun.set(key, list);
          results.set(key, worst(list));
          console.error(
            `bench: cluster ${variant}, ${scenario.name}, run ${round + 1}/${runs}: ${seconds(outcome.wholeS, outcome.timedOut)}, slowest ${fixed(outcome.slowestS)} s, ${outcome.counts.refused} × 429, in flight ${outcome.counts.maxInFlight} (${outcome.counts.maxInFlightQuiet}), ${outcome.counts.signIns} sign-ins, ${outcome.counts.refreshes} refreshes, ${outcome.failed} failed${outcome.afterRestart ? `, after the restart ${outcome.afterRestart.commands} Redis commands (${outcome.afterRestart.byName}) for ${outcome.afterRestart.calls} calls` : ""}${outcome.errors.length ? ` (${outcome.errors.join("; ")})` : ""}`,
          );
          await sleep(1_000);
        }
      }
    }
    trips = await roundTrips(server, redis);
  } finally {
    await redis?.stop();
  }

  const unavailableNote = [...results.values()].find((r) => r && "unavailable" in r);
  const checkRows = CHECKS.map((c) => {
    const cells = VARIANTS.map((v) => c.measure(results, v));
    return [c.name, c.target, ...cells.map((m) => (m ? `${m.measured}${m.met ? "" : " **(not met)**"}` : "n/a"))];
  });
  const shared = trips.redis;
  const tripsRow = [
    "Redis round trips per call when nothing waits",
    "≤ 2",
    "—",
    "unavailable" in shared
      ? "n/a"
      : `${fixed(shared.perCall, 2)} (${shared.byCommand})${shared.perCall <= 2 ? "" : " **(not met)**"}; inside scripts ${fixed(shared.inScriptsPerCall, 2)} (${shared.inScripts})`,
  ];
  const ms = (v: number | string) => (typeof v === "string" ? `n/a (${v})` : `${fixed(v, 2)} ms`);
  const errors = [...perRun.entries()].flatMap(([key, list]) =>
    [...new Set(list.flatMap((r) => r.errors))].map((e) => `- ${key}: ${e}`),
  );
  const body = [
    `${GOODPUT_CALLS} × \`readBenchmark\` for one partner, shared by N processes (${GOODPUT_CALLS}/N each, each process's calls all started at once), every process a real \`createAudienceClient\` with the same credentials and partner, forked with \`child_process.fork\` (bench/cluster-worker.ts). Server: the limited mount, a token bucket per partner of ${RATE} calls/s with burst ${BURST}, ${LATENCY_MS} ms latency, 429 without Retry-After (the client waits Section 8.3's 5–10 s). Ideal (N − burst) / rate = **${fixed(IDEAL_S)} s**. Whole run: from the first process's start to the last one's end (processes are forked and ready first, so start-up is not counted); slowest process: its own start to end. In flight: the most calls of the partner at the server at once (429s included); in brackets the most from ${QUIET_GRACE_MS} ms after a 429 to 60 s after it (the quiet period of Section 8.4, after the time a client needs to hear of the 429). Sign-ins and refreshes: POST /auth and /auth/refresh_token of the group; 401s: calls whose access token had expired. ${runs === 1 ? "One run per scenario" : `Worst of ${runs} runs per scenario, figure by figure`} (\`npm run bench -- --only=cluster${runs === 1 ? " --runs=3" : ""}\` for ${runs === 1 ? "the worst of three" : "one run"}); a run not over in ${SCENARIO_TIMEOUT_MS / 1000} s has its processes killed and their calls counted as failed.`,
    "",
    "### uncoordinated (today's client: every process on its own)",
    "",
    variantTable("uncoordinated", results),
    "",
    "### redis (`redisCoordinator` on ioredis, `maxRetriesPerRequest: 1`, `enableOfflineQueue: false`)",
    "",
    ...(unavailableNote && "unavailable" in unavailableNote ? [`${unavailableNote.unavailable}.`, ""] : []),
    variantTable("redis", results),
    "",
    "### Cluster targets",
    "",
    table(["target", "wanted", "uncoordinated", "redis"], [...checkRows, tripsRow]),
    "",
    `Redis round trips per call: one process, ${ROUND_TRIP_CALLS} sequential calls on the fast mount after a warm-up call (so no sign-in, no 429, no wait), every command seen with \`MONITOR\`: those the process sent (round trips, unless it pipelines; INFO not counted) and, apart, those its Lua scripts ran inside Redis. Time per call in that run: ${ms(trips.plainMs)} uncoordinated, ${ms("unavailable" in shared ? shared.unavailable : shared.msPerCall)} with Redis.`,
    "",
    "Not measured here: a killed process's slots free within 5 s (test/coordination), and one process without Redis no slower than today (sections (a) and (b)).",
    ...(errors.length ? ["", "Failures seen:", "", ...errors] : []),
  ].join("\n");
  const targets = CHECKS.map((c) => {
    const m = c.measure(results, "redis");
    return { name: `${c.name} (redis)`, target: c.target, measured: m?.measured ?? "n/a", met: m?.met ?? false };
  });
  targets.push({
    name: "cluster: Redis round trips per call when nothing waits",
    target: "≤ 2",
    measured: "unavailable" in shared ? "n/a" : fixed(shared.perCall, 2),
    met: !("unavailable" in shared) && shared.perCall <= 2,
  });
  return { title: "(f) Cluster: one partner, many processes", body, targets };
}
