/**
 * The redirect policy (redirect-policy.ts) behind a dynamic import: an answer that is not a 3xx
 * passes through untouched, and the policy loads on the first 3xx, which it then judges as if it
 * had run from the start; from then on it runs itself. Every other app's first calls leave it out.
 * A policy that cannot load follows nothing: the call ends with the redirect refused, as a
 * refused redirect does (no credential ever follows a hop it has not checked).
 */
import { PARTNER_HEADER } from "./auth-policy.ts";
import { AttemptFailure } from "./failure.ts";
import type { Policy } from "./policy.ts";

export function lazyRedirect(trustedOrigins: readonly string[], maxRedirects: number): Policy {
  let loaded: Policy | undefined;
  let loading: Promise<Policy> | undefined;
  const load = (): Promise<Policy> => {
    loading ??= import("./redirect-policy.ts").then(
      (m) => {
        loaded = m.redirectPolicy(trustedOrigins, maxRedirects, PARTNER_HEADER);
        return loaded;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  return async (attempt, ctx, next) => {
    if (loaded) return loaded(attempt, ctx, next);
    const reply = await next(attempt, ctx);
    const { status } = reply.response;
    if (status < 300 || status > 399) return reply;
    let policy: Policy;
    try {
      policy = await load();
    } catch {
      void reply.response.body?.cancel().catch(() => undefined);
      const requestId = reply.response.headers.get("x-request-id") ?? undefined;
      throw new AttemptFailure(
        "redirect",
        true,
        `HTTP ${status} redirect not followed: it could not be checked`,
        requestId,
      );
    }
    // The policy's first attempt is the answer already received; its next hops are sent.
    let answered = false;
    return policy(attempt, ctx, (a, c) => {
      if (answered) return next(a, c);
      answered = true;
      return Promise.resolve(reply);
    });
  };
}
