/**
 * The consumer suite of examples/partner-app: every scenario against the partner module passes;
 * with a bug planted, the suite fails with the kit's own message for that bug.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECKS, runCheck } from "../../examples/partner-app/suite.ts";
import { expectPartnerHeaderOnEvery, type MockApi, SCENARIOS, startMockApi } from "../../src/testing/index.ts";

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
}, 60_000);
afterAll(() => api?.close());

const check = (scenario: string) => {
  const found = CHECKS.find((c) => c.scenario === scenario);
  if (!found) throw new Error(`no check for ${scenario}`);
  return found;
};

describe("the partner module under every scenario", () => {
  it("has a check for each named scenario", () => {
    expect(new Set(CHECKS.map((c) => c.scenario))).toEqual(new Set(SCENARIOS));
  });
  it.each(CHECKS.map((c) => [`${c.scenario}: ${c.name}`, c] as const))("%s", async (_name, c) => {
    await runCheck(api, c);
  });
});

describe("a planted bug fails the suite with the kit's message", () => {
  it("a blind retry of POST /campaigns/ (reset-after-write)", async () => {
    await expect(runCheck(api, check("reset-after-write"), { blindRetry: true })).rejects.toThrow(
      /^Blind repeat of a non-idempotent write: POST \/campaigns\/\?eid=evt-3&name=Spring was sent again.*Section 3 rule 3/,
    );
  });
  it("an unbounded Promise.all in the report (slow-upstream)", async () => {
    await expect(runCheck(api, check("slow-upstream"), { unboundedFanOut: true })).rejects.toThrow(
      /^\d+ requests were in flight at once, more than 2: .*Section 8\.4/,
    );
  });
  it("a last-write-loses autosave (server-errors)", async () => {
    await expect(runCheck(api, check("server-errors"), { lastWriteLoses: true })).rejects.toThrow(
      // Whichever PUT lands last: an older one stored last, or the overlap that made it luck.
      /^(The draft of evt-2 ends as an older edit|Edits of the draft of evt-2 overlapped on the wire): .*Section 3: autosave/,
    );
  });
  it("a hard-coded partner (partner-mismatch)", async () => {
    await expect(runCheck(api, check("partner-mismatch"), { hardCodedPartner: true })).rejects.toThrow(
      /^\d+ of \d+ requests came without the partner header "partner-id-demo-tickets": .*\("partner-id-acme"\).*Section 5\.5/,
    );
  });
});

describe("each planted bug is caught under every seed tried", () => {
  const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];
  const withSeed = (scenario: string, seed: number) => {
    const c = check(scenario);
    return { ...c, options: { ...c.options, seed } };
  };
  it.each(SEEDS)("seed %i: the last-write-loses autosave fails expectNewestDraftWins", async (seed) => {
    await expect(runCheck(api, withSeed("server-errors", seed), { lastWriteLoses: true })).rejects.toThrow(
      /^(The draft of evt-2 ends as an older edit|Edits of the draft of evt-2 overlapped on the wire): .*Section 3: autosave/,
    );
  });
  it.each(SEEDS)("seed %i: the correct wizard passes", async (seed) => {
    await runCheck(api, withSeed("server-errors", seed));
  });
  it("the hard-coded partner fails expectPartnerHeaderOnEvery with no partner given: the mock knows the token's partners", async () => {
    for (const scenario of ["healthy", "partner-mismatch"]) {
      await runCheck(api, check(scenario), { hardCodedPartner: true }).catch(() => undefined);
      expect(() => expectPartnerHeaderOnEvery(api.requests())).toThrow(
        /requests came without the partner header: .*\("partner-id-acme"; the token belongs to partner-id-demo-tickets\)/,
      );
    }
  });
});
