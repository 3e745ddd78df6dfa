/**
 * (g) Isolates: one partner's 400 calls made by 8 Cloudflare Worker isolates (8 worker services in
 * workerd through Miniflare 4, test/support/isolates.ts), 50 each at once, against the limited
 * mount of the bench server (20 calls/s, burst 10, 429 without Retry-After), which counts per
 * partner the calls in flight, the 429s and the sign-ins. Beside today's client (no coordinator):
 * `durableObjectCoordinator` on one `AudienceCoordinator` namespace; the same with every isolate's
 * binding throwing for 2 s mid-run (after 150 calls were admitted); and the objects' own workerd
 * stopped mid-run and started again 2 s later (empty objects, storage kept), the isolates reaching them through its host worker.
 *
 * Round trips: requests from the isolates to the objects (partner and session) per API call, in
 * the runs above and in the steady state (one isolate, 50 calls one after the other, fast mount).
 */
import { type IsolateRun, type Isolates, type Setup, startIsolates } from "../test/support/isolates.ts";
import { GOODPUT_CALLS, IDEAL_S } from "./scenario.ts";
import { type BenchServer, fixed, type Section, sleep, table } from "./support.ts";

const ISOLATES = 8;
/** The disturbance starts once this many calls were admitted (mid-run, whatever the start-up took). */
const DISTURB_AFTER = 150;
const FAULT_MS = 2_000;
/** The coordinator's answer time in the bench's isolates: the machine is shared, the edge is faster. */
const ANSWER_MS = 3_000;

interface Scenario {
  readonly name: string;
  readonly setup: Setup;
  readonly disturb?: (isolates: Isolates) => Promise<void>;
}

const SCENARIOS: readonly Scenario[] = [
  { name: "today (no coordinator)", setup: "none" },
  { name: "Durable Object", setup: "direct" },
  {
    name: "Durable Object, binding throws 2 s",
    setup: "direct",
    disturb: async (iso) => {
      await iso.fault(FAULT_MS);
    },
  },
  {
    name: "Durable Object, its workerd restarted",
    setup: "remote",
    disturb: async (iso) => {
      await iso.stopObjects();
      await sleep(FAULT_MS);
      await iso.startObjects();
    },
  },
];

interface Figures {
  readonly maxInFlight: number;
  readonly signIns: number;
  readonly refused: number;
  readonly failed: number;
  readonly seconds: number;
  readonly roundTripsPerCall: number;
}

async function runScenario(server: BenchServer, scenario: Scenario, index: number): Promise<Figures> {
  const partner = `isolates-${index}-${Date.now()}`;
  const iso = await startIsolates({
    setup: scenario.setup,
    count: ISOLATES,
    baseUrl: server.limited,
    partner,
    answerMs: ANSWER_MS,
  });
  try {
    const per = GOODPUT_CALLS / ISOLATES;
    const started = performance.now();
    const runs = Promise.all(Array.from({ length: ISOLATES }, (_, i) => iso.run(i, i * per, per)));
    if (scenario.disturb) {
      while ((await server.counts(partner)).admitted < DISTURB_AFTER) await sleep(50);
      await scenario.disturb(iso);
    }
    const done: IsolateRun[] = await runs;
    const seconds = (performance.now() - started) / 1000;
    const counts = await server.counts(partner);
    const sum = (f: (r: IsolateRun) => number) => done.reduce((n, r) => n + f(r), 0);
    return {
      maxInFlight: counts.maxInFlight,
      signIns: counts.signIns,
      refused: counts.refused,
      failed: sum((r) => r.failed),
      seconds,
      roundTripsPerCall: sum((r) => r.roundTrips) / GOODPUT_CALLS,
    };
  } finally {
    await iso.close();
  }
}

/** One isolate, `calls` calls one after the other on the fast mount: requests to the objects per call. */
async function steadyState(server: BenchServer, calls: number): Promise<number> {
  const iso = await startIsolates({ setup: "direct", count: 1, baseUrl: server.fast, partner: `steady-${Date.now()}` });
  try {
    await iso.run(0, 0, 1); // signs in
    const run = await iso.run(0, 1, calls, true);
    return run.roundTrips / calls;
  } finally {
    await iso.close();
  }
}

export async function isolates(server: BenchServer): Promise<Section> {
  const rows: Array<[Scenario, Figures]> = [];
  for (const [i, scenario] of SCENARIOS.entries()) rows.push([scenario, await runScenario(server, scenario, i)]);
  const steady = await steadyState(server, 50);
  const coordinated = rows.filter(([s]) => s.setup !== "none").map(([, f]) => f);
  const worst = (f: (x: Figures) => number) => Math.max(...coordinated.map(f));
  const goodput = (f: Figures) => IDEAL_S / f.seconds;
  return {
    title: "(g) Isolates: 8 Worker isolates of one partner through a Durable Object",
    body: [
      `${GOODPUT_CALLS} calls, ${GOODPUT_CALLS / ISOLATES} at once in each of ${ISOLATES} isolates (workerd, Miniflare 4), limited mount; ideal ${fixed(IDEAL_S)} s.`,
      "",
      table(
        [
          "scenario",
          "in flight at most",
          "sign-ins",
          "429s",
          "failed calls",
          "s",
          "goodput ÷ ideal",
          "requests to the object per call",
        ],
        rows.map(([s, f]) => [
          s.name,
          String(f.maxInFlight),
          String(f.signIns),
          String(f.refused),
          String(f.failed),
          fixed(f.seconds),
          fixed(goodput(f), 2),
          s.setup === "none" ? "—" : fixed(f.roundTripsPerCall, 2),
        ]),
      ),
      "",
      `Steady state (one isolate, 50 calls one after the other, fast mount): ${fixed(steady, 2)} requests to the objects per call (session read of the request's new client included).`,
    ].join("\n"),
    targets: [
      {
        name: "isolates: in flight at most",
        target: "≤ 8",
        measured: String(worst((f) => f.maxInFlight)),
        met: worst((f) => f.maxInFlight) <= 8,
      },
      {
        name: "isolates: sign-ins",
        target: "1",
        measured: String(worst((f) => f.signIns)),
        met: worst((f) => f.signIns) <= 1,
      },
      {
        name: "isolates: 429s",
        target: "≤ 12",
        measured: String(worst((f) => f.refused)),
        met: worst((f) => f.refused) <= 12,
      },
      {
        name: "isolates: failed calls",
        target: "0",
        measured: String(worst((f) => f.failed)),
        met: worst((f) => f.failed) === 0,
      },
      {
        name: "isolates: goodput ÷ ideal",
        target: "≥ 0.8×",
        measured: fixed(Math.min(...coordinated.map(goodput)), 2),
        met: Math.min(...coordinated.map(goodput)) >= 0.8,
      },
      {
        name: "isolates: requests to the object per call, steady state",
        target: "≤ 1.2",
        measured: fixed(steady, 2),
        met: steady <= 1.2,
      },
    ],
  };
}
