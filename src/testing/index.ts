/**
 * `@audience-intelligence/client/testing` — a mock of the Audience Intelligence API for your own
 * tests (Node only): Prism serving this package's own description with its examples, in front of
 * it the state of setups, campaigns and sessions (Section 3, 5), named seeded scenarios of the
 * API's bad days (Section 7, 8), the log of what your code sent, and assertions over that log.
 * Needs `@stoplight/prism-cli`, an optional peer dependency, in your devDependencies.
 * See docs/TESTING.md.
 * @module @audience-intelligence/client/testing
 */
export {
  expectAttemptsAtMost,
  expectConcurrencyAtMost,
  expectNoBlindRepeat,
  expectPartnerHeaderOnEvery,
  expectSpacedRetries,
  type SpacingOptions,
} from "./assertions.ts";
export { expectNewestDraftWins } from "./draft-assertion.ts";
export { type MockApi, type MockApiOptions, startMockApi } from "./mock-api.ts";
export type { RecordedRequest } from "./recorded-request.ts";
export { SCENARIOS, type ScenarioName, type ScenarioOptions } from "./scenario-types.ts";
