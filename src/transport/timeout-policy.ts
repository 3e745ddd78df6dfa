/**
 * Per-attempt timeout, joined with the call's signal (the caller's abort or the call's deadline):
 * the first to fire aborts the attempt. One timer per attempt; the call's signal is followed by a
 * listener removed when the attempt ends.
 *
 * The attempt's AbortController is reused: one whose attempt ended without aborting it serves a
 * later attempt (of this call or another), until it has served {@link MAX_USES}. A new controller
 * is ~3 µs, and the first Request to follow a signal raises its listener limit (~1 µs); together
 * about a tenth of a call's cost with a stub `fetch` (BENCHMARKS.md (a)). The uses are bounded
 * because a Request (undici's) leaves its abort listener on the signal until it is
 * garbage-collected: a signal shared without bound collects thousands (215 µs a call and
 * MaxListenersExceeded warnings when it was tried). An aborted controller is never reused: its
 * abort belongs to its attempt alone. A reused signal that aborts later also marks the Requests of
 * the attempts it served before, whose responses were read in full by then (fetch-terminal.ts):
 * no work of theirs is left to cancel.
 */
import { setBoundedTimeout } from "../internal/timers.ts";
import { AttemptFailure } from "./failure.ts";
import type { Policy } from "./policy.ts";

/** Attempts one controller serves at most. 8 saved as much as 32 or 128 in the measurements. */
const MAX_USES = 8;
/** Idle controllers kept: enough for the attempts in flight at once of a busy process. */
const MAX_IDLE = 64;

interface Reusable {
  readonly controller: AbortController;
  uses: number;
}

/** Controllers whose attempts ended without an abort, shared by every client of the process. */
const idle: Reusable[] = [];

export function timeoutPolicy(timeoutMs: number): Policy {
  return async (attempt, ctx, next) => {
    const caller = ctx.signal;
    if (caller?.aborted) throw caller.reason;
    const reusable = idle.pop() ?? { controller: new AbortController(), uses: 0 };
    reusable.uses += 1;
    const { controller } = reusable;
    const timer = setBoundedTimeout(
      () => controller.abort(new AttemptFailure("timeout", true, `no complete response within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onAbort = (): void => controller.abort(caller?.reason);
    caller?.addEventListener("abort", onAbort, { once: true });
    attempt.signal = controller.signal;
    try {
      return await next(attempt, ctx);
    } catch (error) {
      // A timeout or deadline the terminal already tied to the response's request id goes on as it is.
      if (error instanceof AttemptFailure) throw error;
      if (caller?.aborted) throw caller.reason;
      if (controller.signal.aborted) throw controller.signal.reason;
      throw error;
    } finally {
      clearTimeout(timer);
      caller?.removeEventListener("abort", onAbort);
      if (!controller.signal.aborted && reusable.uses < MAX_USES && idle.length < MAX_IDLE) idle.push(reusable);
    }
  };
}
