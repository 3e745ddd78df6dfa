/** Holds a concurrency slot for each attempt (not during retry waits) and reports 429s. */
import type { ConcurrencyLimiter } from "./limiter.ts";
import type { Policy } from "./policy.ts";

export function limiterPolicy(limiterFor: (partnerId: string | undefined) => ConcurrencyLimiter): Policy {
  return async (request, ctx, next) => {
    const limiter = limiterFor(ctx.partnerId);
    const release = await limiter.acquire(ctx.signal);
    try {
      const response = await next(request, ctx);
      if (response.status === 429) limiter.rateLimited();
      return response;
    } finally {
      release();
    }
  };
}
