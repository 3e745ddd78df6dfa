/**
 * The campaign-wizard recipe (examples/campaign-wizard.ts) against the test kit: three steps edit
 * one working draft faster than the 1 s debounce, then publish. Under the healthy mock and the
 * scenarios a wizard meets (5xx bursts, a connection reset after a write), the stored draft is the
 * last edit, no PUT overlaps another, no POST is repeated blindly, and publish flushes first.
 */
import { createAudienceClient, listEvents } from "@audience-intelligence/client";
import {
  expectAttemptsAtMost,
  expectNewestDraftWins,
  expectNoBlindRepeat,
  type MockApi,
  type ScenarioName,
  startMockApi,
} from "@audience-intelligence/client/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWizard } from "../../examples/campaign-wizard.ts";

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
}, 60_000);
afterAll(() => api?.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function runWizard(scenario: ScenarioName) {
  api.reset();
  api.useScenario(scenario, { seed: 3 });
  const client = createAudienceClient({
    baseUrl: api.baseUrl,
    credentials: api.credentials,
    adPlatform: "facebook",
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
  });
  const eids: string[] = [];
  for await (const event of listEvents(client, { maxItems: 1 })) eids.push(event.id);
  const eid = eids[0] as string;
  const wizard = await openWizard(client, eid, { goal: "UTILIZATION", total_budget: 500 });
  wizard.edit({ goal: "ROAS" }); // step 1
  await sleep(150);
  wizard.edit({ total_budget: 1500 }); // step 2, "Next" pressed within the debounce
  await sleep(150);
  wizard.edit({ start_date: "2027-01-10", end_date: "2027-02-10" }); // step 3
  expect(wizard.pending()).toBe(true);
  const published = await wizard.publish();
  expect(wizard.pending()).toBe(false);
  return { eid, published, draft: wizard.draft, requests: api.requests() };
}

describe("examples/campaign-wizard.ts", () => {
  it.each(["healthy", "server-errors", "reset-after-write"] as const)(
    "%s: the stored draft is the last edit, flushed before the boost",
    async (scenario) => {
      const { eid, published, draft, requests } = await runWizard(scenario);
      expect(draft).toMatchObject({
        goal: "ROAS",
        total_budget: 1500,
        start_date: "2027-01-10",
        end_date: "2027-02-10",
      });
      expectNewestDraftWins(requests, eid);
      expectNoBlindRepeat(requests);
      expectAttemptsAtMost(requests, 5);
      const path = `/setup_processes/${eid}`;
      const lastPut = requests.filter((r) => r.method === "PUT" && r.path === path && (r.status ?? 0) < 300).at(-1);
      const boost = requests.find((r) => r.method === "POST" && r.path === `${path}/boost` && (r.status ?? 0) < 300);
      expect(lastPut && boost && (lastPut.endedAt ?? 0) <= boost.startedAt).toBe(true);
      expect(published.status).toBeGreaterThanOrEqual(200);
      expect(published.connectionChecked).toBe(true);
    },
    30_000,
  );
});
