/** Per-attempt timeout, joined with the caller's signal: the first to fire aborts the attempt. */
import { anySignal } from "../internal/any-signal.ts";
import { AttemptFailure } from "./failure.ts";
import type { Policy } from "./policy.ts";

export function timeoutPolicy(timeoutMs: number): Policy {
  return async (request, ctx, next) => {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new AttemptFailure("timeout", true, `no complete response within ${timeoutMs} ms`)), timeoutMs);
    try {
      return await next(new Request(request, { signal: anySignal([ctx.signal, timeout.signal]) }), ctx);
    } catch (error) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      if (timeout.signal.aborted) throw timeout.signal.reason;
      throw error;
    } finally {
      clearTimeout(timer);
    }
  };
}
