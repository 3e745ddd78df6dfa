/**
 * The consumer suite: each scenario of the test kit run against the partner module (app.ts), and
 * the kit's assertions over what the module sent. Framework-free: `runCheck` resolves when the
 * module kept the rules and rejects with the kit's message when it did not (the module's own error
 * comes second: what it sent is the better witness). test/testing/partner-app.test.ts runs it with
 * vitest, correct and with each bug planted.
 */
import type { SetupPayload } from "@audience-intelligence/client";
import {
  expectAttemptsAtMost,
  expectConcurrencyAtMost,
  expectNewestDraftWins,
  expectNoBlindRepeat,
  expectPartnerHeaderOnEvery,
  expectSpacedRetries,
  type MockApi,
  type ScenarioName,
  type ScenarioOptions,
} from "@audience-intelligence/client/testing";
import { type PlantedBugs, partnerApp, REPORT_CONCURRENCY } from "./app.ts";

type App = ReturnType<typeof partnerApp>;

export interface Check {
  readonly scenario: ScenarioName;
  readonly options?: ScenarioOptions;
  readonly name: string;
  /** Runs the module; the kit's assertions follow in {@link runCheck}. */
  readonly run: (app: App, api: MockApi) => Promise<void>;
  /** Assertions beyond the ones every check makes. */
  readonly expect?: (api: MockApi) => void;
}

/** Short waits, so the suite is fast; the spacing assertion is given the same numbers. */
const RETRY = { baseDelayMs: 20, maxDelayMs: 80, rateLimitDelayMs: [30, 40] as const };
const edits = (n: number): SetupPayload[] =>
  Array.from({ length: n }, (_, i) => ({ goal: "UTILIZATION", total_budget: 1000 + i * 100, tc_run_id: 42 }));
const events = (n: number) => Array.from({ length: n }, (_, i) => `evt-${i + 1}`);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const CHECKS: readonly Check[] = [
  {
    scenario: "healthy",
    name: "sync, wizard and report",
    run: async (app) => {
      await app.nightlySync("evt-1", ["Spring", "Summer"]);
      await app.campaignWizard("evt-1", edits(3));
      await app.bulkReport(events(6));
    },
    expect: (api) => expectNewestDraftWins(api.requests(), "evt-1"),
  },
  {
    scenario: "rate-limit-storm",
    options: { seed: 5, share: 0.4 },
    name: "the report rides out 429s",
    run: async (app) => void (await app.bulkReport(events(10))),
    expect: (api) => expectConcurrencyAtMost(api.requests(), REPORT_CONCURRENCY),
  },
  {
    scenario: "server-errors",
    options: { seed: 2, share: 0.3, calls: 12 },
    name: "the wizard's last edit wins through 5xx bursts",
    run: (app) => app.campaignWizard("evt-2", edits(4)),
    expect: (api) => expectNewestDraftWins(api.requests(), "evt-2"),
  },
  {
    scenario: "reset-after-write",
    options: { times: 2 },
    name: "the sync creates each campaign once though answers are lost",
    run: (app) => app.nightlySync("evt-3", ["Spring", "Summer"]),
    expect: (api) => expectCampaignsOnce(api, "evt-3"),
  },
  {
    scenario: "token-expiry",
    options: { lifetimeMs: 800 },
    name: "the report goes on across expiring tokens",
    run: async (app) => {
      await app.bulkReport(events(4));
      await pause(900);
      await app.bulkReport(events(4));
    },
  },
  {
    scenario: "refresh-refused",
    options: { lifetimeMs: 800 },
    name: "the report goes on after a refused refresh",
    run: async (app) => {
      await app.bulkReport(events(4));
      await pause(900);
      await app.bulkReport(events(4));
    },
  },
  {
    scenario: "partner-mismatch",
    name: "every call names the partner of the sign-in",
    run: async (app) => {
      await app.nightlySync("evt-4", ["Spring"]);
      await app.bulkReport(events(3));
    },
  },
  {
    scenario: "published-setup",
    name: "the wizard stops editing a setup someone else published",
    run: async (app) => {
      await app.campaignWizard("evt-5", edits(2));
      const second = await app.campaignWizard("evt-5", edits(2)).then(
        () => new Error("the second round of edits was accepted, though the setup was published"),
        (error: unknown) => (/published/.test(String(error)) ? undefined : error),
      );
      if (second) throw second;
    },
  },
  {
    scenario: "clock-skew",
    name: "one sign-in though the server's clock is ten minutes ahead",
    run: async (app) => void (await app.bulkReport(events(4))),
    expect: (api) => {
      const auth = api.requests().filter((r) => r.path.startsWith("/auth"));
      if (auth.length !== 1) throw new Error(`expected one sign-in, saw ${auth.map((r) => r.path).join(", ")}`);
    },
  },
  {
    scenario: "slow-upstream",
    options: { delayMs: 150 },
    name: "the report reads a few events at a time",
    run: async (app) => void (await app.bulkReport(events(12))),
    expect: (api) => expectConcurrencyAtMost(api.requests(), REPORT_CONCURRENCY),
  },
  {
    scenario: "drift",
    options: { seed: 4 },
    name: "the report survives drifted answers",
    run: async (app) => void (await app.bulkReport(events(6))),
  },
];

/** POST /campaigns/ once per name, as the module's log shows it (Section 3 rule 3). */
function expectCampaignsOnce(api: MockApi, eid: string): void {
  const posts = api.requests().filter((r) => r.path === "/campaigns/" && r.query.eid?.[0] === eid);
  const names = posts.map((r) => r.query.name?.[0]);
  if (new Set(names).size !== names.length)
    throw new Error(`campaigns of ${eid} posted more than once: ${names.join(", ")}`);
}

/** Runs one check on a fresh state: the module, then the kit's assertions, then the module's own error. */
export async function runCheck(api: MockApi, check: Check, bugs: PlantedBugs = {}): Promise<void> {
  api.useScenario("healthy");
  api.reset();
  api.useScenario(check.scenario, check.options);
  const app = partnerApp({ baseUrl: api.baseUrl, credentials: api.credentials, bugs, retry: RETRY });
  const failure = await check.run(app, api).then(
    () => undefined,
    (error: unknown) => error,
  );
  const requests = api.requests();
  expectPartnerHeaderOnEvery(requests, api.partnerId);
  expectNoBlindRepeat(requests);
  // The client's backoff waits 0.7 to 1 times its delay (Section 8.3's jitter of up to 30 %).
  expectSpacedRetries(requests, { minDelayMs: RETRY.baseDelayMs * 0.7, afterRateLimitMs: RETRY.rateLimitDelayMs[0] });
  expectAttemptsAtMost(requests, 5);
  check.expect?.(api);
  if (failure) throw failure;
}
