/**
 * The signal one call runs under: it aborts when the caller's signal aborts (followed through one
 * shared listener, internal/on-abort.ts) or when the call's deadline passes, whichever comes
 * first. Everything the call waits for — a slot, the pace, a sign-in, a retry wait, the attempt in
 * flight — follows this one signal, so the deadline ends all of it at once.
 */
import { reasonOf } from "./abort-signal.ts";
import { onAbort } from "./on-abort.ts";
import { setBoundedTimeout } from "./timers.ts";

export interface CallSignal {
  readonly signal: AbortSignal;
  /** Stops following the caller's signal and clears the deadline timer. */
  dispose(): void;
}

/**
 * @param deadlineReason what the signal aborts with when the deadline passes
 * @param origin the caller's own signal, when `caller` is that of a Request built from it (for a
 *   middleware): the call ends with the origin's reason. A runtime's Request following a signal of
 *   another realm or a polyfill's aborts with a reason of its own.
 * @returns undefined when there is neither a caller signal nor a deadline (nothing to follow)
 */
export function callSignal(
  caller: AbortSignal | undefined,
  deadlineMs: number | undefined,
  deadlineReason: () => unknown,
  origin?: AbortSignal,
): CallSignal | undefined {
  if (!caller && deadlineMs === undefined) return undefined;
  const controller = new AbortController();
  let stop: (() => void) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const abort = () => controller.abort(abortReason(caller as AbortSignal, origin));
  if (caller?.aborted) abort();
  else if (caller) stop = onAbort(caller, abort);
  if (deadlineMs !== undefined && !controller.signal.aborted)
    timer = setBoundedTimeout(() => controller.abort(deadlineReason()), deadlineMs);
  return {
    signal: controller.signal,
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
      stop?.();
    },
  };
}

/** Why `signal` aborted: the origin's reason when it has aborted too (see callSignal). */
export const abortReason = (signal: AbortSignal, origin: AbortSignal | undefined): unknown =>
  reasonOf(origin?.aborted ? origin : signal);
