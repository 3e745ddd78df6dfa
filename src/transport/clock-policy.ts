/**
 * Teaches the server's clock (internal/server-clock.ts) from the `Date` of every response, the
 * sign-in's and the refresh's included, with the wall-clock times the attempt left and came back.
 * Innermost but one of the policies, so a retry wait or a slot wait never widens the bounds.
 */
import type { ServerClock } from "../internal/server-clock.ts";
import type { Policy } from "./policy.ts";

export function clockPolicy(clock: ServerClock): Policy {
  return async (attempt, ctx, next) => {
    const sentAt = Date.now();
    const reply = await next(attempt, ctx);
    clock.observe(reply.response.headers.get("date"), sentAt, Date.now());
    return reply;
  };
}
