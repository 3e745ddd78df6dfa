/** The `retry` option (Section 8.2, 8.3): only lowering the limits is allowed. */

import { MAX_TIMER_MS } from "../internal/timers.ts";
import { CLIENT_DEFAULTS, SPEC } from "../limits.ts";
import type { ClientConfig, RetryOptions } from "../option-types.ts";
import { fail, nonNegative, object, positiveInt } from "./checks.ts";

export function retryOptions(value: RetryOptions | undefined): ClientConfig["retry"] {
  const retry = object("retry", value ?? {}, "an object") as RetryOptions;
  const rateLimitDelayMs = retry.rateLimitDelayMs ?? [SPEC.rateLimitWaitMinMs, SPEC.rateLimitWaitMaxMs];
  if (
    !Array.isArray(rateLimitDelayMs) ||
    rateLimitDelayMs.length !== 2 ||
    !rateLimitDelayMs.every((n) => typeof n === "number" && Number.isFinite(n) && n >= 0 && n <= MAX_TIMER_MS) ||
    rateLimitDelayMs[0] > rateLimitDelayMs[1]
  ) {
    fail("retry.rateLimitDelayMs", `must be [min, max] with 0 ≤ min ≤ max ≤ ${MAX_TIMER_MS}`);
  }
  return Object.freeze({
    maxAttempts: positiveInt("retry.maxAttempts", retry.maxAttempts, SPEC.maxAttempts, SPEC.maxAttempts),
    baseDelayMs: nonNegative("retry.baseDelayMs", retry.baseDelayMs, SPEC.backoffBaseMs),
    maxDelayMs: nonNegative("retry.maxDelayMs", retry.maxDelayMs, SPEC.backoffCapMs),
    rateLimitDelayMs: Object.freeze([rateLimitDelayMs[0], rateLimitDelayMs[1]] as const),
    maxRetryAfterMs: nonNegative("retry.maxRetryAfterMs", retry.maxRetryAfterMs, CLIENT_DEFAULTS.maxRetryAfterMs),
    deadlineMs: retry.deadlineMs === undefined ? undefined : nonNegative("retry.deadlineMs", retry.deadlineMs, 0),
  });
}
