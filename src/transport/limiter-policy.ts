/**
 * Holds a concurrency slot for each attempt (not during retry waits), then waits for the partner's
 * pace (transport/pacer.ts) inside that slot, so the call leaves exactly when paced. Reports 429s
 * to both, and every other response to the pacer as a call the partner admitted.
 */
import { monotonicNow } from "../internal/clock.ts";
import { SPEC } from "../limits.ts";
import { AttemptFailure } from "./failure.ts";
import type { ConcurrencyLimiter } from "./limiter.ts";
import type { RatePacer } from "./pacer.ts";
import type { Policy } from "./policy.ts";
import { parseRetryAfter } from "./retry-after.ts";

export interface LimiterPolicyDeps {
  readonly limiterFor: (partnerId: string | undefined) => ConcurrencyLimiter;
  readonly pacerFor?: (partnerId: string | undefined) => RatePacer | undefined;
  /** The server's clock (an HTTP-date Retry-After is server time). @default Date.now */
  readonly serverNow?: () => number;
  /** After each response of a partner (the rate-state watch, when `onRateStateChange` is set). */
  readonly onResponse?: ((partnerId: string | undefined) => void) | undefined;
}

export function limiterPolicy(deps: LimiterPolicyDeps): Policy {
  const { limiterFor, pacerFor = () => undefined, serverNow = Date.now, onResponse } = deps;
  return async (attempt, ctx, next) => {
    const limiter = limiterFor(ctx.partnerId);
    const pacer = pacerFor(ctx.partnerId);
    // The common case, a free slot and nobody waiting, takes it without a promise or a listener.
    let release = !ctx.signal?.aborted && limiter.tryAcquire();
    if (!release) {
      const waitStarted = monotonicNow();
      release = await limiter.acquire(ctx.signal, ctx.lane);
      ctx.slotWaitMs = monotonicNow() - waitStarted;
    }
    try {
      // A turn that would come after the call's deadline is not waited for (issue 19).
      const paceWait = pacer && ctx.deadlineAt !== undefined ? pacer.waitEstimateMs() : 0;
      if (ctx.deadlineAt !== undefined && paceWait > 0 && monotonicNow() + paceWait > ctx.deadlineAt) {
        ctx.retryAt = Date.now() + paceWait;
        throw new AttemptFailure("deadline", false, `the partner's pace would send it after the call's deadline`);
      }
      let ticket = pacer ? pacer.take(ctx.signal) : 0;
      if (typeof ticket !== "number") {
        const waitStarted = monotonicNow();
        ticket = await ticket;
        ctx.paceWaitMs = monotonicNow() - waitStarted;
      }
      const response = await next(attempt, ctx);
      if (response.status === 429) {
        const retryAfter = parseRetryAfter(response.headers.get("retry-after"), serverNow());
        limiter.rateLimited(retryAfter ?? SPEC.rateLimitWaitMinMs);
        // A 429 with Retry-After says when to come back: that wait governs (Section 8.3), and the
        // pacer does not learn a rate from it (it would only add its own waits on top).
        if (pacer && retryAfter === undefined) pacer.throttled(ticket);
      } else {
        pacer?.admitted();
      }
      onResponse?.(ctx.partnerId);
      return response;
    } finally {
      release();
    }
  };
}
