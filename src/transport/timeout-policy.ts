/**
 * Per-attempt timeout, joined with the call's signal (the caller's abort or the call's deadline):
 * the first to fire aborts the attempt. One timer per attempt; the call's signal is followed by a
 * listener removed when the attempt ends.
 *
 * The attempt's AbortController is reused when no code of the caller's can see its signal: the
 * attempt goes to the runtime's own fetch (no `fetch` or `Request` option, none of the call's own,
 * and the global fetch not patched since the package was loaded: internal/runtime.ts).
 * A controller whose attempt ended without aborting it then serves a later attempt of the same
 * client, until it has served {@link MAX_USES}. A new controller is ~3 µs, and the first Request to
 * follow a signal raises its listener limit (~1 µs); with the garbage each leaves, reuse took the
 * overlay from 2.6× to 1.5× bare openapi-fetch (BENCHMARKS.md (a)). The uses are bounded because
 * undici's Request leaves its abort listener on the signal until it is collected: a signal shared
 * without bound collects thousands (215 µs a call and MaxListenersExceeded warnings when it was
 * tried). An aborted controller is never reused. A reused signal that aborts later also marks the
 * runtime's Requests of the attempts it served before, whose responses were read in full by then
 * (fetch-terminal.ts): nothing of theirs is left to cancel, and no one else holds them. A `fetch`
 * of the caller's gets a controller of its attempt's own: a wrapper that logs or cleans up on
 * `request.signal` must never see a finished request aborted by another call.
 */
import { globalFetchUnpatched } from "../internal/runtime.ts";
import { setBoundedTimeout } from "../internal/timers.ts";
import { AttemptFailure } from "./failure.ts";
import type { Policy } from "./policy.ts";

/** Attempts one controller serves at most. 8 saved as much as 32 or 128 in the measurements. */
const MAX_USES = 8;
/** Idle controllers kept per client: enough for the attempts in flight at once of a busy client. */
const MAX_IDLE = 64;

interface Reusable {
  readonly controller: AbortController;
  uses: number;
}

/**
 * @param runtimeFetch whether the client sends to the runtime's own fetch (no `fetch` or `Request`
 *   option): only then, and for a call that gave neither, are controllers reused
 */
export function timeoutPolicy(timeoutMs: number, runtimeFetch: boolean): Policy {
  /** This client's controllers whose attempts ended without an abort. */
  const idle: Reusable[] = [];
  return async (attempt, ctx, next) => {
    const caller = ctx.signal;
    if (caller?.aborted) throw caller.reason;
    const reuse = runtimeFetch && !ctx.fetch && !ctx.requestClass && globalFetchUnpatched();
    const reusable = (reuse && idle.pop()) || { controller: new AbortController(), uses: 0 };
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
      if (reuse && !controller.signal.aborted && reusable.uses < MAX_USES && idle.length < MAX_IDLE)
        idle.push(reusable);
    }
  };
}
