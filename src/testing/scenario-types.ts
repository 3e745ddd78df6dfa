/** The names and options of the mock's scenarios: a stable public contract. */

/** The named scenarios of `startMockApi({ scenario })` and `api.useScenario(name)`. */
export type ScenarioName =
  | "healthy"
  | "rate-limit-storm"
  | "server-errors"
  | "reset-after-write"
  | "token-expiry"
  | "refresh-refused"
  | "partner-mismatch"
  | "published-setup"
  | "clock-skew"
  | "slow-upstream"
  | "drift";

/** Every scenario name, in the order the documentation lists them. */
export const SCENARIOS: readonly ScenarioName[] = Object.freeze([
  "healthy",
  "rate-limit-storm",
  "server-errors",
  "reset-after-write",
  "token-expiry",
  "refresh-refused",
  "partner-mismatch",
  "published-setup",
  "clock-skew",
  "slow-upstream",
  "drift",
]);

/** Options of a scenario; each applies to the scenarios named in its description, others ignore it. */
export interface ScenarioOptions {
  /** Seed of the scenario's random choices: the same seed, the same answers to the same requests. @default 1 */
  seed?: number;
  /**
   * rate-limit-storm, server-errors, drift: the share of requests hit, 0 to 1.
   * @default 0.5 (rate-limit-storm, server-errors), 0.3 (drift)
   */
  share?: number;
  /** rate-limit-storm, server-errors, drift: how many requests the storm lasts (counted from its start). @default 20 */
  calls?: number;
  /** server-errors: the statuses of the bursts (Section 7). @default [500, 502, 503, 504] */
  statuses?: readonly number[];
  /** reset-after-write: how many committed writes lose their answer. @default 1 */
  times?: number;
  /** token-expiry, refresh-refused: how long an access token the mock mints is accepted. @default 2000 */
  lifetimeMs?: number;
  /** published-setup: how many successful draft edits (PUT) of an event before someone else publishes it. @default 1 */
  afterEdits?: number;
  /** clock-skew: how far the server's clock (its `Date` and token times) is ahead; negative is behind. @default 600000 */
  skewMs?: number;
  /** slow-upstream: how long each answer is held back, at most 30000. @default 1000 */
  delayMs?: number;
}
