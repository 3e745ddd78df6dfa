/** Request start and end for the caller's logger. Paths are templates; nothing secret is logged. */
import { monotonicNow } from "../internal/clock.ts";
import type { Logger } from "../options.ts";
import type { Policy } from "./policy.ts";

export function logPolicy(logger: Logger, now: () => number = monotonicNow): Policy {
  return async (attempt, ctx, next) => {
    const { method, path } = ctx;
    logger.debug?.("request start", { method, path });
    try {
      const reply = await next(attempt, ctx);
      const { response } = reply;
      logger.debug?.("request end", {
        method,
        path,
        status: response.status,
        attempts: ctx.attempt,
        ms: now() - ctx.startedAt,
        requestId: response.headers.get("x-request-id") ?? undefined,
      });
      return reply;
    } catch (error) {
      const e = error as { name?: string; requestId?: string };
      logger.warn?.("request failed", {
        method,
        path,
        attempts: ctx.attempt,
        ms: now() - ctx.startedAt,
        error: e?.name ?? "Error",
        requestId: e?.requestId,
      });
      throw error;
    }
  };
}
