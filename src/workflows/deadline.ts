/**
 * One deadline across a helper's calls. A helper given `deadlineMs` fixes the
 * moment it must end, on the monotonic clock, when it starts; each of its calls carries that
 * moment (the transport's waits — backoff, Retry-After, the pace — that would end after it fail at
 * once, their error carrying `retryAt`), and so do the helper's own waits (a poll's interval).
 */
import { helperInit } from "../call/helper-options.ts";
import { TimeoutError } from "../errors/network-error.ts";
import { ValidationError } from "../errors/validation-error.ts";
import { monotonicNow } from "../internal/clock.ts";
import { MAX_TIMER_MS, setBoundedTimeout } from "../internal/timers.ts";

/**
 * The monotonic ms by which a helper started now with `deadlineMs` must end; undefined without one.
 * At most MAX_TIMER_MS, as the client's `retry.deadlineMs` (options/checks.ts): each call's deadline
 * is a timer, which a runtime fires at once above it.
 */
export function deadlineAt(deadlineMs: number | undefined): number | undefined {
  if (deadlineMs === undefined) return undefined;
  if (!(typeof deadlineMs === "number" && deadlineMs >= 0 && deadlineMs <= MAX_TIMER_MS))
    throw new ValidationError([
      { field: "deadlineMs", message: `must be a number, 0 or more, at most ${MAX_TIMER_MS} (the timer limit)` },
    ]);
  return monotonicNow() + deadlineMs;
}

/** Spread into a call's init: the helper's deadline for that call (call/helper-options.ts). */
export const withDeadline = (at: number | undefined): ReturnType<typeof helperInit> => helperInit({ deadlineAt: at });

/** `work`, or a TimeoutError once `at` passes (the work goes on; its outcome is then not awaited). */
export function withinDeadline<T>(work: Promise<T>, at: number): Promise<T> {
  const left = Math.max(0, at - monotonicNow());
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setBoundedTimeout(
      () =>
        reject(
          new TimeoutError("the flush did not finish within deadlineMs; the edit stays pending and its save goes on"),
        ),
      left,
    );
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * Undefined when a wait of `waitMs` ends by `at`; else the TimeoutError to fail with now, saying
 * when the wait would have ended (`retryAt`, epoch ms).
 */
export function pastDeadline(at: number | undefined, waitMs: number, what: string): TimeoutError | undefined {
  if (at === undefined) return undefined;
  const left = at - monotonicNow();
  if (waitMs <= left && left > 0) return undefined;
  return new TimeoutError(
    `${what}: the next try in ${Math.round(waitMs)} ms would come after the deadline (${Math.max(0, Math.round(left))} ms left)`,
    { retryAt: Date.now() + waitMs, expected: "an answer within deadlineMs" },
  );
}
