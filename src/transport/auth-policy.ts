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
import type { Policy } from "./policy.ts";

export const PARTNER_HEADER = "X-Preferred-Partner-Id";

/** What the policies need of the session. */
export interface Authorizer {
  /** The current token and partner when nothing is due (no sign-in, no refresh); else undefined. */
  current(): Authorization | undefined;
  /** Signs in or refreshes first when needed; shared by every call waiting for it. */
  authorize(): Promise<Authorization>;
}

export function sessionPolicy(session: () => Authorizer): Policy {
  return async (attempt, ctx, next) => {
    if (ctx.authenticated) {
      const s = session();
      // A shared sign-in or refresh goes on for the other calls; this caller may stop waiting.
      const auth = s.current() ?? (await (ctx.signal ? abortable(s.authorize(), ctx.signal) : s.authorize()));
      ctx.partnerId = auth.partnerId;
    }
    return next(attempt, ctx);
  };
}

export function credentialsPolicy(session: () => Authorizer): Policy {
  return async (attempt, ctx, next) => {
    const { headers } = attempt;
    if (ctx.authenticated) {
      const s = session();
      const auth = s.current() ?? (await (ctx.signal ? abortable(s.authorize(), ctx.signal) : s.authorize()));
      headers.set("Authorization", `Bearer ${auth.accessToken}`);
      headers.set(PARTNER_HEADER, auth.partnerId);
      ctx.tokenUsed = auth.accessToken;
      ctx.partnerId = auth.partnerId;
    } else if (headers.has("authorization") || headers.has(PARTNER_HEADER)) {
      headers.delete("Authorization");
      headers.delete(PARTNER_HEADER);
    }
    return next(attempt, ctx);
  };
}
