/**
 * A call's deadline and signal while it waits for code still loading.
 *
 * The deadline (a helper's `deadlineMs`, the client's `retry.deadlineMs`) counts from the moment
 * the caller made the call (create-client.ts passes it), so a wait for the engine's load is
 * inside it; a call whose deadline passed before it could be sent fails unsent.
 *
 * The wait for the request schemas (guards/validate-request.ts: the first call that validates) is
 * bounded as every other wait of the call is (the pace, a slot, a backoff): an abort rejects at
 * once with the signal's reason, a deadline with a TimeoutError; the call then never starts, so
 * nothing of it is sent once the schemas have loaded. The wait for the engine itself (lazy-engine.ts)
 * is not: that code would be loaded up front, ~0.4 KB min+gzip over the browser build's 10 KB target;
 * such a call ends as soon as the engine is there (engine.ts), unsent.
 */
import { TimeoutError } from "../errors/network-error.ts";
import { reasonOf } from "../internal/abort-signal.ts";
import { monotonicNow } from "../internal/clock.ts";
import { onAbort } from "../internal/on-abort.ts";
import { MAX_TIMER_MS } from "../internal/timers.ts";
import { HELPER, type HelperOptions } from "./helper-options.ts";

/** A call's deadline (monotonic ms) and when the call was made, from which it counts. */
export interface CallDeadline {
  readonly at: number;
  readonly askedAt: number;
}

/** The monotonic ms by which a call asked at `askedAt` must end: its helper's deadline or the client's `retry.deadlineMs`, the earlier. */
export function callDeadline(
  init: Record<string, unknown> | undefined,
  clientDeadlineMs: number | undefined,
  askedAt: number,
): number | undefined {
  const helper = (init as { [HELPER]?: HelperOptions } | undefined)?.[HELPER]?.deadlineAt;
  const own = clientDeadlineMs === undefined ? undefined : askedAt + clientDeadlineMs;
  return own === undefined ? helper : helper === undefined ? own : Math.min(own, helper);
}

/**
 * The call's failure when its deadline passed before it was sent (nothing was). `path` is a
 * template of the description, or undefined: a path outside it is the caller's own text, which may
 * hold a value, and no error repeats it.
 */
export const deadlineBeforeSending = (
  method: string,
  path: string | undefined,
  askedAt: number,
  at: number,
): TimeoutError =>
  new TimeoutError(
    `${method}${path === undefined ? "" : ` ${path}`}: the call's deadline of ${Math.round(at - askedAt)} ms passed before it was sent`,
    { method, path, attempts: 0, expected: "an answer within deadlineMs" },
  );

/**
 * `work(start)`, bounded until it starts: `work` calls `start()` once the code has loaded, and
 * goes on only if that returns true. Before that, an abort of `signal` rejects with its reason and
 * the deadline `at` with `timedOut()`, and `start()` then returns false. Once started, the work's
 * outcome is the call's (its own signal and deadline govern it from there).
 */
export function whileLoading<T>(
  work: (start: () => boolean) => Promise<T>,
  given: unknown,
  at: number | undefined,
  timedOut: () => Error,
): Promise<T> {
  // Not a signal (the engine's checks refuse it, naming the field): nothing to listen to here.
  const signal =
    typeof (given as AbortSignal | null)?.addEventListener === "function" ? (given as AbortSignal) : undefined;
  if (!signal && at === undefined) return work(() => true);
  return new Promise((resolve, reject) => {
    let over = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let unfollow: (() => void) | undefined;
    const start = (): boolean => {
      if (over) return false;
      over = true;
      clearTimeout(timer);
      unfollow?.();
      return true;
    };
    const left = at === undefined ? Number.POSITIVE_INFINITY : at - monotonicNow();
    if (signal?.aborted) {
      start();
      reject(reasonOf(signal));
    } else {
      // One listener per signal however many calls share it (internal/on-abort.ts).
      if (signal) unfollow = onAbort(signal, () => start() && reject(reasonOf(signal)));
      // A deadline past the timer's range never ends a load (options/checks.ts bounds the client's).
      if (left <= MAX_TIMER_MS) timer = setTimeout(() => start() && reject(timedOut()), Math.max(0, left));
    }
    // Started even when already over: what it settles with is then ignored, not left unhandled.
    work(start).then(resolve, (error: unknown) => {
      start();
      reject(error);
    });
  });
}
