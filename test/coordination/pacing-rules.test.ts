/**
 * One pacing rule set for both pacers: the same random sequences of calls, admissions and 429s go
 * through the in-process `RatePacer` and through the Redis coordinator's scripts on a real
 * redis-server (on a clock the test sets), and every decision must agree: whether a call may go
 * now or waits for the pace, the epoch it goes under, how long it would wait, and the pace then;
 * and the state Redis keeps must be, field by field, the state the rules keep here.
 * Also: the committed Lua is what `npm run generate` makes of src/coordination/pacing-rules.ts.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitLua } from "../../scripts/lib/emit-lua.ts";
import { emitPacingLua, PACING_LUA_FILE } from "../../scripts/lib/emit-pacing-lua.ts";
import * as rules from "../../src/coordination/pacing-rules.ts";
import { CLIENT_DEFAULTS } from "../../src/limits.ts";
import { type RedisCommands, type Reply, redisCommands } from "../../src/redis/commands.ts";
import { partnerScripts } from "../../src/redis/partner-script.ts";
import { type PacerSettings, RatePacer } from "../../src/transport/pacer.ts";
import { type RedisServer, redisUnavailable, startRedis } from "../support/redis.ts";

// A fixed seed keeps the suite deterministic; FC_SEED=<n> explores (and replays) another run.
fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 0x6_2026) });

const NOW_KEY = "pacing-rules-test:now";
/** The scripts on a clock this test sets (the production scripts read Redis's TIME). */
const { acquire, release } = partnerScripts(`\n  return tonumber(redis.call('GET', '${NOW_KEY}'))`);
const START = 1_000_000;

type Event =
  | { readonly dt: number; readonly kind: "take" }
  | { readonly dt: number; readonly kind: "admit" }
  | { readonly dt: number; readonly kind: "refuse"; readonly back: number };

/** Ms between events: any, or round steps that land on the rules' boundaries (a window, a spacing). */
const dt = fc.oneof(fc.integer({ min: 0, max: 250 }), fc.constantFrom(0, 0, 0, 50, 100, 250, 500, 1_000));
const event: fc.Arbitrary<Event> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ dt, kind: fc.constant("take" as const) }) },
  fc.record({ dt, kind: fc.constant("admit" as const) }),
  {
    weight: 2,
    arbitrary: fc.record({ dt, kind: fc.constant("refuse" as const), back: fc.integer({ min: 0, max: 2 }) }),
  },
);

/** The defaults, or shorter spans so that recovery, idling off and the horizon come within a run. */
const settings: fc.Arbitrary<PacerSettings> = fc.oneof(
  fc.constant({ ...CLIENT_DEFAULTS.pacing }),
  fc.record({
    ...Object.fromEntries(Object.entries(CLIENT_DEFAULTS.pacing).map(([k, v]) => [k, fc.constant(v)])),
    recoveryMs: fc.constantFrom(1_500, 4_000),
    windowMs: fc.constantFrom(300, 1_000),
    horizonMs: fc.constantFrom(3_000, 8_000),
    idleOffMs: fc.constantFrom(500, 2_000),
    doublingMs: fc.constantFrom(250, 1_000),
    burstMs: fc.constantFrom(100, 500),
  } as { [K in keyof PacerSettings]: fc.Arbitrary<number> }),
);

/** A pace as both sides report it: Redis's state is JSON with 14 significant digits. */
function expectSamePace(ts: number | undefined, lua: string, step: string): void {
  if (ts === undefined || lua === "") {
    expect(lua === "" ? undefined : Number(lua), step).toBe(ts);
    return;
  }
  expect(Math.abs(Number(lua) - ts) / ts, `${step}: pace ${ts} here, ${lua} in Redis`).toBeLessThan(1e-9);
}

/** Redis's JSON state field by field against the rules' own state run beside it (14 digits there; -1e15 is Lua's "never"). */
function expectSameState(st: rules.PaceState, stored: Record<string, unknown>, step: string): void {
  const close = (a: number, b: number) =>
    (a <= -1e15 && b <= -1e15) || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  for (const [field, here] of Object.entries(st) as Array<[string, number | number[]]>) {
    const there = stored[field];
    const same = Array.isArray(here)
      ? Array.isArray(there)
        ? here.length === there.length && here.every((v, i) => close(v, Number(there[i])))
        : here.length === 0
      : close(here, Number(there));
    expect(same, `${step}: ${field} is ${JSON.stringify(here)} here, ${JSON.stringify(there)} in Redis`).toBe(true);
  }
}

const skip = redisUnavailable();
let server: RedisServer;
let redis: RedisCommands;
let run = 0;

beforeAll(async () => {
  if (skip) return;
  server = await startRedis();
  redis = redisCommands(await server.ready(server.client()), 5_000);
});
afterAll(async () => {
  await server?.stop();
});

/** Runs `events` through both pacers, comparing after each. */
async function compare(s: PacerSettings, events: readonly Event[]): Promise<void> {
  run += 1;
  const keys = [`pr:${run}:leases`, `pr:${run}:state`, `pr:${run}:live`];
  const json = JSON.stringify(s);
  let now = START;
  const pacer = new RatePacer({ settings: s, now: () => now, setTimer: () => () => undefined });
  const st = rules.newPaceState(s);
  let epoch = 0;
  for (const [i, e] of events.entries()) {
    now += e.dt;
    await redis.send("SET", NOW_KEY, now);
    const step = `event ${i} (${e.kind}) at +${now - START} ms`;
    if (e.kind === "take") {
      const reply = (await redis.run(acquire, keys, [
        json,
        `l${i}`,
        1,
        1000,
        1000,
        60_000,
        1,
        "p",
        10_000,
        600_000,
        0,
        "",
        0,
        0,
      ])) as string[];
      if (st.en === 1) rules.take(st, s, now); // as both callers: take() is for pacing on
      const controller = new AbortController();
      const ticket = pacer.take(controller.signal);
      if (typeof ticket === "number") {
        expect(reply[0], step).toBe("ok");
        expect(Number(reply[7]), step).toBe(ticket);
        epoch = ticket;
      } else {
        ticket.catch(() => undefined);
        controller.abort();
        expect(reply[0], step).toBe("pace");
        // Whole ms, rounded up: the 14 digits of Redis's state can move a wait of exactly 300 ms to 301.
        expect(Math.abs(Number(reply[1]) - Math.ceil(pacer.waitEstimateMs())), `${step}: wait`).toBeLessThanOrEqual(1);
      }
      expectSamePace(pacer.rate, reply[3] as string, step);
    } else {
      const ticket = e.kind === "refuse" ? Math.max(0, epoch - e.back) : 0;
      const reply = (await redis.run(release, keys, [
        json,
        "none",
        e.kind === "admit" ? "a" : "r",
        5_000,
        0,
        ticket,
        1,
        600_000,
      ])) as Reply[];
      if (e.kind === "admit") {
        pacer.admitted();
        rules.admitted(st, s, now);
      } else {
        pacer.throttled(ticket);
        rules.throttled(st, s, now, ticket);
      }
      expectSamePace(pacer.rate, reply[1] as string, step);
    }
    const stored = (await redis.send("GET", keys[1] as string)) as string | null;
    if (stored) expectSameState(st, JSON.parse(stored) as Record<string, unknown>, step);
  }
}

describe.skipIf(skip)("the pacing rules, in the process and in Redis", () => {
  it("decide alike on random sequences of calls, admissions and 429s", async () => {
    await fc.assert(
      fc.asyncProperty(settings, fc.array(event, { minLength: 20, maxLength: 200 }), (s, events) => compare(s, events)),
      { numRuns: 150 },
    );
  }, 60_000);

  it("decide alike through a partner's learning: slow start, a measured cut, recovery, idling off", async () => {
    // 20 calls/s admitted, a burst of 429s every 1.2 s for 6 s, then quiet: every rule runs.
    const events: Event[] = [];
    for (let t = 0; t < 6_000; t += 50) {
      events.push({ dt: 50, kind: "take" }, { dt: 0, kind: t % 1_200 < 150 ? "refuse" : "admit", back: 0 });
    }
    for (let k = 0; k < 10; k++) events.push({ dt: 700, kind: "take" }, { dt: 0, kind: "admit" });
    await compare({ ...CLIENT_DEFAULTS.pacing }, events);
  });
});

describe("the generated Lua", () => {
  it("is what generation makes of the rules now (npm run generate)", async () => {
    const committed = readFileSync(PACING_LUA_FILE, "utf8");
    expect(await emitPacingLua()).toBe(committed);
  });

  it("refuses what it cannot translate, naming it, instead of writing other Lua", () => {
    expect(() => emitLua("function f(st) { return st.a?.b; }")).toThrow(/emit-lua: optional chaining at line 1/);
    expect(() => emitLua("function f(a) { return a.map(g); }")).toThrow(/unsupported method call/);
    expect(() => emitLua("function f(x) { for (const y of x) g(y); }")).toThrow(/unsupported statement/);
  });
});
