/**
 * Authentication of every attempt (Section 5.2, 5.5), in two steps around the concurrency slot:
 *
 * - `sessionPolicy`, before the slot: makes sure there is a session (the shared sign-in or
 *   refresh) and learns the partner, which picks the partner's limiter;
 * - `credentialsPolicy`, inside the slot: stamps the token that is current when the attempt
 *   leaves, so a call that waited for its slot never sends a token refreshed away meanwhile.
 *
 * Calls that must not carry credentials (/auth*, /status/, other origins) have both removed.
 */
import { abortable } from "../internal/abortable.ts";
import type { Authorization } from "../session/session.ts";
import type { Attempt, CallContext, Policy } from "./policy.ts";

export const PARTNER_HEADER = "X-Preferred-Partner-Id";

/** What the policies need of the session. */
export interface Authorizer {
  /**
   * The current token and partner when nothing is due (no sign-in, no refresh); else undefined.
   * `since` is when the call began (monotonic): a token received since serves it (one refresh per call at most).
   */
  current(since?: number): Authorization | undefined;
  /** Signs in or refreshes first when needed; shared by every call waiting for it. */
  authorize(since?: number): Promise<Authorization>;
}

// Both policies take the token without a promise when the session has a current one; only a
// sign-in or refresh under way makes them wait.

export function sessionPolicy(session: () => Authorizer): Policy {
  return (attempt, ctx, next) => {
    if (!ctx.authenticated) return next(attempt, ctx);
    const current = session().current(ctx.startedAt);
    if (current) {
      ctx.partnerId = current.partnerId;
      return next(attempt, ctx);
    }
    return waitFor(session, ctx).then((auth) => {
      ctx.partnerId = auth.partnerId;
      return next(attempt, ctx);
    });
  };
}

export function credentialsPolicy(session: () => Authorizer): Policy {
  return (attempt, ctx, next) => {
    if (!ctx.authenticated) {
      const { headers } = attempt;
      if (headers.has("authorization") || headers.has(PARTNER_HEADER)) {
        headers.delete("Authorization");
        headers.delete(PARTNER_HEADER);
      }
      return next(attempt, ctx);
    }
    const current = session().current(ctx.startedAt);
    if (current) return next(stamp(attempt, ctx, current), ctx);
    return waitFor(session, ctx).then((auth) => next(stamp(attempt, ctx, auth), ctx));
  };
}

/** A shared sign-in or refresh goes on for the other calls; this caller may stop waiting. */
function waitFor(session: () => Authorizer, ctx: CallContext): Promise<Authorization> {
  // An aborted call starts nothing, not even the shared sign-in.
  if (ctx.signal?.aborted) return Promise.reject(ctx.signal.reason);
  const pending = session().authorize(ctx.startedAt);
  return ctx.signal ? abortable(pending, ctx.signal) : pending;
}

function stamp(attempt: Attempt, ctx: CallContext, auth: Authorization): Attempt {
  attempt.headers.set("Authorization", `Bearer ${auth.accessToken}`);
  attempt.headers.set(PARTNER_HEADER, auth.partnerId);
  ctx.tokenUsed = auth.accessToken;
  ctx.partnerId = auth.partnerId;
  return attempt;
}
