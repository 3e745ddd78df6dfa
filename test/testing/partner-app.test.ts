/**
 * The consumer suite of examples/partner-app: every scenario against the partner module passes;
 * with a bug planted, the suite fails with the kit's own message for that bug.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECKS, runCheck } from "../../examples/partner-app/suite.ts";
import { type MockApi, SCENARIOS, startMockApi } from "../../src/testing/index.ts";

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
      /^The draft of evt-2 ends as an older edit: .*Section 3: autosave/,
    );
  });
  it("a hard-coded partner (partner-mismatch)", async () => {
    await expect(runCheck(api, check("partner-mismatch"), { hardCodedPartner: true })).rejects.toThrow(
      /^\d+ of \d+ requests came without the partner header "partner-id-demo-tickets": .*\("partner-id-acme"\).*Section 5\.5/,
    );
  });
});
