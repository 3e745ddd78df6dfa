/**
 * Per-attempt timeout, joined with the call's signal (the caller's abort or the call's deadline):
 * the first to fire aborts the attempt. One timer per attempt; the call's signal is followed by a
 * listener removed when the attempt ends.
 *
 * Every attempt has an AbortController of its own, whoever receives its signal. A controller shared
 * by several attempts would abort, with one attempt's reason, the Requests of the others it served
 * before, and whatever `fetch` received them may be the caller's code even when it looks like the
 * runtime's own (caller-code.ts): a wrapper that logs or cleans up on `request.signal` must never see
 * a finished request aborted by another call.
 */
import { setBoundedTimeout } from "../internal/timers.ts";
import { AttemptFailure } from "./failure.ts";
import type { Policy } from "./policy.ts";

export function timeoutPolicy(timeoutMs: number): Policy {
  return async (attempt, ctx, next) => {
    const caller = ctx.signal;
    if (caller?.aborted) throw caller.reason;
    const controller = new AbortController();
    const timer = setBoundedTimeout(
      () => controller.abort(new AttemptFailure("timeout", true, `no complete response within ${timeoutMs} ms`)),
      timeoutMs,
    );
    // Only a call with a signal (the caller's, or its deadline's) has one to follow: no listener otherwise.
    const onAbort = caller ? (): void => controller.abort(caller.reason) : undefined;
    if (onAbort) caller?.addEventListener("abort", onAbort, { once: true });
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
      if (onAbort) caller?.removeEventListener("abort", onAbort);
    }
  };
}
