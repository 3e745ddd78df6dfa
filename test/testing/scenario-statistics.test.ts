/**
 * Every scenario measured against what docs/TESTING.md says of it, over 200 seeds: the storms'
 * shares, their bounds (`calls` requests counted whole), the bursts of server-errors (one to
 * three 5xx, each followed by a success), and the options each scenario takes, checked. The
 * scenarios' decisions are pure functions of the request order, so this runs without a server;
 * scenarios.test.ts shows each one on the wire.
 */
import { describe, expect, it } from "vitest";
import { json } from "../../src/testing/answer.ts";
import type { FaultRequest, Faults } from "../../src/testing/faults.ts";
import { SCENARIOS, type ScenarioName, type ScenarioOptions } from "../../src/testing/scenario-types.ts";
import { scenarioFaults } from "../../src/testing/scenarios.ts";

const SEEDS = Array.from({ length: 200 }, (_, i) => i + 1);
const context = { partnerId: "partner-a", required: () => ["id"] };
const faults = (name: ScenarioName, options: ScenarioOptions = {}) => scenarioFaults(name, options, context);
const read: FaultRequest = { method: "GET", path: "/events/evt-1", partner: "partner-a", bearer: true };

/** The statuses the scenario answers instead of the real one (0: the real answer) for `n` requests. */
const statuses = (f: Faults, n: number, request = read) =>
  Array.from({ length: n }, () => f.instead(request)?.status ?? 0);

/** Runs of consecutive non-zero statuses: [start, length]. */
function bursts(seq: readonly number[]): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  seq.forEach((s, i) => {
    if (s === 0) return;
    const last = runs.at(-1);
    if (last && last[0] + last[1] === i) last[1] += 1;
    else runs.push([i, 1]);
  });
  return runs;
}

describe("server-errors: bursts of one to three 5xx, each followed by a success, on about half of `calls` requests", () => {
  it.each([
    [{}, 20, 0.5],
    [{ calls: 40 }, 40, 0.5],
    [{ share: 0.3, calls: 30 }, 30, 0.3],
  ] as const)("%o over 200 seeds", (options, calls, share) => {
    let hit = 0;
    for (const seed of SEEDS) {
      const seq = statuses(faults("server-errors", { ...options, seed }), calls + 30);
      expect(seq.slice(calls).every((s) => s === 0)).toBe(true); // the storm ends with `calls`
      for (const [start, length] of bursts(seq)) {
        expect(length).toBeGreaterThanOrEqual(1);
        expect(length).toBeLessThanOrEqual(3);
        const burst = seq.slice(start, start + length);
        expect(new Set(burst).size).toBe(1); // one status per burst
        expect([500, 502, 503, 504]).toContain(burst[0]);
        expect(seq[start + length]).toBe(0); // each burst followed by a success
      }
      hit += seq.slice(0, calls).filter((s) => s !== 0).length;
    }
    expect(hit / (calls * SEEDS.length)).toBeGreaterThan(share - 0.05);
    expect(hit / (calls * SEEDS.length)).toBeLessThan(share + 0.05);
  });
  it("a client that makes at most five attempts completes every call it makes one after another, under every seed", () => {
    for (const seed of SEEDS) {
      const f = faults("server-errors", { seed, calls: 100 });
      for (let call = 0; call < 30; call++) {
        let attempts = 1;
        while (f.instead(read) !== undefined) attempts += 1;
        expect(attempts).toBeLessThanOrEqual(4);
      }
    }
  });
  it("`statuses` chooses the bursts' statuses", () => {
    const seq = statuses(faults("server-errors", { statuses: [503], seed: 3 }), 20);
    expect(new Set(seq.filter((s) => s !== 0))).toEqual(new Set([503]));
  });
});

describe("rate-limit-storm: 429 on a share of the first `calls` requests", () => {
  it.each([
    [{}, 20, 0.5],
    [{ share: 0.2, calls: 50 }, 50, 0.2],
  ] as const)("%o over 200 seeds", (options, calls, share) => {
    let hit = 0;
    for (const seed of SEEDS) {
      const seq = statuses(faults("rate-limit-storm", { ...options, seed }), calls + 20);
      expect(seq.slice(calls).every((s) => s === 0)).toBe(true);
      expect(seq.every((s) => s === 0 || s === 429)).toBe(true);
      hit += seq.filter((s) => s === 429).length;
    }
    expect(hit / (calls * SEEDS.length)).toBeGreaterThan(share - 0.05);
    expect(hit / (calls * SEEDS.length)).toBeLessThan(share + 0.05);
  });
  it("429s can come five in a row (docs: a five-attempt call can fail), under some seeds of 200", () => {
    const longest = SEEDS.map((seed) =>
      Math.max(0, ...bursts(statuses(faults("rate-limit-storm", { seed }), 20)).map(([, n]) => n)),
    );
    expect(longest.some((n) => n >= 5)).toBe(true);
  });
  it("share 1 answers every one of the first `calls` requests 429, then none", () => {
    expect(statuses(faults("rate-limit-storm", { share: 1, calls: 3 }), 6)).toEqual([429, 429, 429, 0, 0, 0]);
  });
});

describe("drift: on a share of the first `calls` 2xx answers (not sign-in, refresh or health)", () => {
  it("share 0.3 of 20 by default, over 200 seeds; sign-in never", () => {
    let hit = 0;
    for (const seed of SEEDS) {
      const f = faults("drift", { seed });
      const auth: FaultRequest = { method: "POST", path: "/auth", partner: undefined, bearer: false };
      const drifted = Array.from({ length: 40 }, (_, i) => {
        expect(f.alter(auth, json(200, { AccessToken: "x" })).status).toBe(200);
        expect(f.alter(read, json(404, { code: "x" })).status).toBe(404); // errors untouched, not counted
        const answer = json(200, { id: `evt-${i}`, name: "n" });
        return f.alter(read, answer) !== answer;
      });
      expect(drifted.slice(20).some(Boolean)).toBe(false);
      hit += drifted.filter(Boolean).length;
    }
    expect(hit / (20 * SEEDS.length)).toBeGreaterThan(0.25);
    expect(hit / (20 * SEEDS.length)).toBeLessThan(0.35);
  });
});

describe("the other scenarios, as documented", () => {
  it("reset-after-write drops the answers of the first `times` non-idempotent writes only", () => {
    const f = faults("reset-after-write", { times: 2 });
    const post: FaultRequest = { method: "POST", path: "/campaigns/", partner: "p", bearer: true };
    const create: FaultRequest = { method: "POST", path: "/setup_processes/evt-1", partner: "p", bearer: true };
    const put: FaultRequest = { method: "PUT", path: "/setup_processes/evt-1", partner: "p", bearer: true };
    expect([read, put, post, create, post].map((r) => f.dropAnswer(r))).toEqual([false, false, true, true, false]);
    expect(faults("reset-after-write").dropAnswer(post)).toBe(true);
    expect(faults("reset-after-write").instead(post)).toBeUndefined();
  });
  it("partner-mismatch: 403 for a missing or other partner header on a call with a bearer, on no open path", () => {
    const f = faults("partner-mismatch");
    const status = (r: Partial<FaultRequest>) => f.instead({ ...read, ...r })?.status ?? 0;
    expect(status({})).toBe(0);
    expect(status({ partner: undefined })).toBe(403);
    expect(status({ partner: "partner-b" })).toBe(403);
    expect(status({ partner: "partner-b", bearer: false })).toBe(0); // no bearer: the description's 401
    expect(status({ path: "/auth", method: "POST", partner: undefined })).toBe(0);
    expect(status({ path: "/status/", partner: undefined })).toBe(0);
  });
  it("token-expiry, refresh-refused, published-setup, clock-skew, slow-upstream: their options and defaults", () => {
    expect(faults("token-expiry")).toMatchObject({ tokenLifetimeMs: 2000, refreshRefused: false });
    expect(faults("token-expiry", { lifetimeMs: 500 }).tokenLifetimeMs).toBe(500);
    expect(faults("refresh-refused")).toMatchObject({ tokenLifetimeMs: 2000, refreshRefused: true });
    expect(faults("published-setup").publishAfterEdits).toBe(1);
    expect(faults("published-setup", { afterEdits: 3 }).publishAfterEdits).toBe(3);
    expect(faults("clock-skew").skewMs).toBe(600_000);
    expect(faults("clock-skew", { skewMs: -5000 }).skewMs).toBe(-5000);
    expect(faults("slow-upstream").delayMs).toBe(1000);
    expect(faults("slow-upstream", { delayMs: 90_000 }).delayMs).toBe(30_000); // capped
    expect(faults("healthy")).toMatchObject({ tokenLifetimeMs: 3_600_000, skewMs: 0, delayMs: 0 });
  });
});

describe("seeds", () => {
  it("the same seed gives the same sequence; 200 seeds give 200 sequences", () => {
    const sequence = (seed: number) => statuses(faults("server-errors", { seed, calls: 60 }), 60).join(",");
    expect(sequence(9)).toBe(sequence(9));
    expect(new Set(SEEDS.map(sequence)).size).toBe(SEEDS.length);
  });
  it("every storm is seeded the same way: the seed changes the sequence for each", () => {
    for (const name of ["server-errors", "rate-limit-storm"] as const) {
      expect(statuses(faults(name, { seed: 1 }), 20)).not.toEqual(statuses(faults(name, { seed: 2 }), 20));
    }
  });
});

describe("names and options are checked, with errors that name them", () => {
  it.each(["constructor", "toString", "__proto__", "hasOwnProperty", "chaos"])("scenario %j is refused", (name) => {
    expect(() => faults(name as ScenarioName)).toThrow(new RegExp(`Unknown scenario "${name}": one of healthy,`));
  });
  it.each([
    ["seed", 1.5],
    ["seed", -1],
    ["seed", 2 ** 32],
    ["seed", Number.NaN],
    ["share", 1.5],
    ["share", -0.1],
    ["share", Number.NaN],
    ["calls", Number.POSITIVE_INFINITY],
    ["calls", -1],
    ["calls", 2.5],
    ["times", Number.POSITIVE_INFINITY],
    ["lifetimeMs", -1],
    ["lifetimeMs", Number.NaN],
    ["afterEdits", 0.5],
    ["skewMs", Number.POSITIVE_INFINITY],
    ["delayMs", -5],
    ["delayMs", Number.NaN],
    ["statuses", []],
    ["statuses", [200]],
    ["statuses", "500"],
  ] as const)("%s: %o is refused with an error naming the option", (option, value) => {
    expect(() => faults("server-errors", { [option]: value } as ScenarioOptions)).toThrow(
      new RegExp(`^Scenario option "${option}"`),
    );
  });
  it("server-errors with a share above two thirds starts a burst wherever one can start: about 2/3 are 5xx, each burst still followed by a success", () => {
    let hit = 0;
    for (const seed of SEEDS) {
      const seq = statuses(faults("server-errors", { share: 1, seed }), 20);
      expect(seq[0]).not.toBe(0);
      for (const [start, length] of bursts(seq)) if (start + length < 20) expect(seq[start + length]).toBe(0);
      hit += seq.filter((s) => s !== 0).length;
    }
    expect(hit / (20 * SEEDS.length)).toBeGreaterThan(0.6);
    expect(hit / (20 * SEEDS.length)).toBeLessThan(0.7);
  });
  it("an option no scenario knows is refused, naming the known ones", () => {
    expect(() => faults("server-errors", { shares: 0.5 } as ScenarioOptions)).toThrow(
      /^Unknown scenario option "shares": one of seed, share, calls,/,
    );
  });
  it("every scenario accepts its documented options at their defaults", () => {
    for (const name of SCENARIOS) expect(() => faults(name, { seed: 1 })).not.toThrow();
  });
});
