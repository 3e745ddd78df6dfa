/**
 * Stamps every attempt of an authenticated call with the current bearer token and the partner
 * header (Section 5.2, 5.5); strips both from calls that must not carry them (/auth*, /status/).
 */
import { abortable } from "../internal/abortable.ts";
import type { Authorization } from "../session/session.ts";
import type { Policy } from "./policy.ts";

export const PARTNER_HEADER = "X-Preferred-Partner-Id";

export function authPolicy(authorize: () => Promise<Authorization>): Policy {
  return async (request, ctx, next) => {
    const headers = new Headers(request.headers);
    if (ctx.authenticated) {
      // A shared sign-in or refresh goes on for the other calls; this caller may stop waiting.
      const { accessToken, partnerId } = await abortable(authorize(), ctx.signal);
      headers.set("Authorization", `Bearer ${accessToken}`);
      headers.set(PARTNER_HEADER, partnerId);
      ctx.tokenUsed = accessToken;
      ctx.partnerId = partnerId;
    } else {
      headers.delete("Authorization");
      headers.delete(PARTNER_HEADER);
    }
    return next(new Request(request, { headers }), ctx);
  };
}
