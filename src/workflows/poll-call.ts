/**
 * How the poll helpers call the API (Section 8.5): a poll's own schedule governs its retries. Each
 * fetch of a status or task is one attempt (the transport does not retry it a few hundred ms later,
 * which would poll faster than the schedule allows); a failure that a retry may cure is instead
 * retried by the poll, after its next wait.
 */
import { helperInit } from "../call/helper-options.ts";
import { ApiError, RateLimitError } from "../errors/api-error.ts";
import { NetworkError } from "../errors/network-error.ts";
import { SPEC } from "../limits.ts";

/**
 * Spread into a poll's call: no transport retries, and the poll's deadline, if any
 * (call/helper-options.ts).
 */
export const pollCall = (deadlineAt: number | undefined): ReturnType<typeof helperInit> =>
  helperInit({ deadlineAt, transportRetries: false });

/**
 * The least wait before the poll fetches again after `error`, or undefined when the error is
 * final. Retryable as in Section 8.2 (429, 500, 502, 503, 504, no response); after a 429 the wait
 * is at least its Retry-After, or the Section 8.3 wait of 5 s when there is none.
 */
export function pollRetryDelayMs(error: unknown): number | undefined {
  if (error instanceof RateLimitError) return error.retryAfterMs ?? SPEC.rateLimitWaitMinMs;
  if (error instanceof ApiError) return SPEC.retryableStatuses.includes(error.status) ? 0 : undefined;
  if (error instanceof NetworkError) return 0;
  return undefined;
}
