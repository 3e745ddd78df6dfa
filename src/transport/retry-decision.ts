/**
 * Whether and when to try a call again (Section 8.2–8.3, Section 3 rule 3), as a pure function of
 * what the attempt ended with: no clock, no randomness of its own, no I/O. The retry policy
 * (retry-policy.ts) carries the decision out; `test/unit/retry-decision.test.ts` is its table. The
 * jitter's randomness is passed in, drawn only when a wait is.
 *
 * - A response whose status is not retryable (Section 8.2: 429, 500, 502, 503, 504 are) is the
 *   answer.
 * - A failure another attempt cannot change (deadline, refused redirect, size) ends the call; a
 *   poll's fetch is never retried by the transport (the poll's schedule does it).
 * - A write that may have reached the server is repeated only if its operation is `repeatable`;
 *   `check-first` asks the API first (`check-write`), `never` gives up saying it may have happened.
 * - The wait: a Retry-After as given (past `maxRetryAfterMs`, give up); after a 429 without one,
 *   Section 8.3's 5–10 s; else exponential backoff with jitter.
 * - No attempt past `maxAttempts`; no wait that would end after the call's deadline (give up now,
 *   saying when the retry would have been: `retryInMs`).
 */
import type { OperationInfo } from "../../generated/operations.ts";
import { SPEC } from "../limits.ts";
import type { ClientConfig } from "../options.ts";
import { backoffDelayMs, rateLimitDelayMs } from "./backoff.ts";

export interface RetryInput {
  /** The operation's retry policy (x-retry), or the method's default. */
  readonly policy: OperationInfo["retry"];
  /** The attempt that just ended, from 1. */
  readonly attempt: number;
  /** Its response's status, when there was a response. */
  readonly status?: number | undefined;
  /** Its response's Retry-After, parsed (ms from now), when it had one. */
  readonly retryAfterMs?: number | undefined;
  /** Its failure, when there was no usable response. */
  readonly failure?: { readonly retryable: boolean; readonly sent: boolean } | undefined;
  /** The call is a poll's fetch: its schedule retries, not the transport. */
  readonly pollCall?: boolean;
  /** A check-first write was checked and found not to have happened. */
  readonly writeAbsent?: boolean;
  /** Draws in [0, 1) for the jitter; called only when a wait is drawn (one draw at most). */
  readonly random: () => number;
  /** Ms left before the call's deadline, if it has one. */
  readonly msToDeadline?: number | undefined;
}

export type RetryDecision =
  /** The response is the call's answer. */
  | { readonly kind: "answer" }
  /** Ask the API whether the write took effect before anything else. */
  | { readonly kind: "check-write" }
  /** Stop here. `ambiguousWrite`: the write may have happened. `retryInMs`: the wait the deadline cut short. */
  | { readonly kind: "give-up"; readonly ambiguousWrite: boolean; readonly retryInMs?: number }
  /** Wait `waitMs`, then try again. */
  | { readonly kind: "retry"; readonly waitMs: number };

/** Section 8.2: the statuses worth another attempt. */
export const isRetryableStatus = (status: number): boolean => SPEC.retryableStatuses.includes(status);

export function decideRetry(input: RetryInput, retry: ClientConfig["retry"]): RetryDecision {
  const { failure, status, policy } = input;
  if (status !== undefined && !isRetryableStatus(status)) return { kind: "answer" };
  if (failure && !failure.retryable)
    return { kind: "give-up", ambiguousWrite: failure.sent && policy !== "repeatable" };
  if (input.pollCall) return { kind: "give-up", ambiguousWrite: false };
  // From here the attempt failed in a retryable way. May it be repeated?
  const mayHaveArrived = failure === undefined || failure.sent;
  if (mayHaveArrived && policy === "check-first" && !input.writeAbsent) return { kind: "check-write" };
  if (mayHaveArrived && policy === "never") return { kind: "give-up", ambiguousWrite: true };
  let waitMs: number;
  if (input.retryAfterMs !== undefined) {
    if (input.retryAfterMs > retry.maxRetryAfterMs) return { kind: "give-up", ambiguousWrite: false };
    waitMs = input.retryAfterMs; // honoured as given, without jitter (Section 8.3)
  } else if (status === 429) {
    waitMs = rateLimitDelayMs(retry, input.random());
  } else {
    waitMs = backoffDelayMs(input.attempt, retry, input.random());
  }
  if (input.attempt >= retry.maxAttempts) return { kind: "give-up", ambiguousWrite: false };
  if (input.msToDeadline !== undefined && waitMs > input.msToDeadline)
    return { kind: "give-up", ambiguousWrite: false, retryInMs: waitMs };
  return { kind: "retry", waitMs };
}
