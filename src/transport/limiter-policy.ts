/**
 * Takes the partner's turn for each attempt (a slot, then its pace: coordination/coordinator.ts),
 * not during retry waits, and reports how the attempt ended: a 429 to slots and pace, any other
 * response as a call the partner admitted, no response as neither. The first step to see a
 * response, it reads its Retry-After (Section 8.3) once, for itself, and hands it back with the
 * reply for the retry policy.
 */
import { type PartnerCoordination, TooLate, type Turn } from "../coordination/coordinator.ts";
import { SPEC } from "../limits.ts";
import { AttemptFailure } from "./failure.ts";
import type { CallContext, Policy, Reply } from "./policy.ts";
import { parseRetryAfter } from "./retry-after.ts";

export interface LimiterPolicyDeps {
  readonly partnerFor: (partnerId: string | undefined) => PartnerCoordination;
  /** The server's clock (an HTTP-date Retry-After is server time). @default Date.now */
  readonly serverNow?: () => number;
  /** After each response of a partner (the rate-state watch, when `onRateStateChange` is set). */
  readonly onResponse?: ((partnerId: string | undefined) => void) | undefined;
}

export function limiterPolicy(deps: LimiterPolicyDeps): Policy {
  const { partnerFor, serverNow = Date.now, onResponse } = deps;
  return async (attempt, ctx, next) => {
    let turn: Turn;
    const admitted = takeAdmitted(ctx);
    if (admitted) {
      turn = admitted;
    } else {
      const request = { signal: ctx.signal, lane: ctx.lane, deadlineAt: ctx.deadlineAt };
      try {
        const pending = partnerFor(ctx.partnerId).turn(request);
        turn = pending instanceof Promise ? await pending : pending;
      } catch (error) {
        if (!(error instanceof TooLate)) throw error;
        ctx.retryAt = Date.now() + error.waitMs;
        throw new AttemptFailure("deadline", false, error.message);
      }
    }
    if (turn.slotWaitMs !== undefined) ctx.slotWaitMs = turn.slotWaitMs;
    if (turn.paceWaitMs !== undefined) ctx.paceWaitMs = turn.paceWaitMs;
    let reply: Reply;
    try {
      reply = await next(attempt, ctx);
    } catch (error) {
      turn.done({ kind: "no-response" });
      throw error;
    }
    const { response } = reply;
    const retryAfter = SPEC.retryableStatuses.includes(response.status)
      ? parseRetryAfter(response.headers.get("retry-after"), serverNow())
      : undefined;
    if (response.status === 429) {
      turn.done({
        kind: "rate-limited",
        waitMs: retryAfter ?? SPEC.rateLimitWaitMinMs,
        retryAfter: retryAfter !== undefined,
      });
    } else {
      turn.done({ kind: "admitted" });
    }
    onResponse?.(ctx.partnerId);
    return retryAfter === undefined ? reply : { ...reply, retryAfterMs: retryAfter };
  };
}

/**
 * The turn the call took at admission (call/admit.ts), once: for the partner the attempt goes
 * to; one taken for another partner (the session changed partner meanwhile) is given back unused.
 */
function takeAdmitted(ctx: CallContext): Turn | undefined {
  const { admitted } = ctx;
  if (!admitted) return undefined;
  ctx.admitted = undefined;
  if (admitted.partnerId === ctx.partnerId) return admitted.turn;
  admitted.turn.done({ kind: "no-response" });
  return undefined;
}
