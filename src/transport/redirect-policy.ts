/**
 * Follows redirects by hand so that no credential leaves the API's origins:
 *
 * - a request carrying a secret in its body (sign-in, refresh: the /auth family) never follows a
 *   redirect, so tokens are only ever accepted from the API's own origin;
 * - a hop from https to http is refused (it would send the request in clear text);
 * - a hop to another origin drops Authorization, Cookie, Proxy-Authorization and
 *   X-Preferred-Partner-Id, and is refused when it would resend the body (307/308);
 * - a Location that is not an http(s) URL, or more than `maxRedirects` hops, ends the call.
 *
 * Each refusal is an `AttemptFailure` of kind "redirect", which the retry policy does not retry:
 * the same request would be redirected the same way (a loop would cost five times its hops).
 */
import { AttemptFailure } from "./failure.ts";
import type { Policy } from "./policy.ts";

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * `partnerHeader` is auth-policy.ts's PARTNER_HEADER, handed in by lazy-redirect.ts: this module is
 * a chunk of its own, and importing one the engine has would make esbuild split that into another.
 */
export function redirectPolicy(trustedOrigins: readonly string[], maxRedirects: number, partnerHeader: string): Policy {
  const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization", partnerHeader];
  return async (attempt, ctx, next) => {
    let current = attempt;
    for (let hop = 0; ; hop++) {
      const reply = await next(current, ctx);
      const { response } = reply;
      const location = REDIRECTS.has(response.status) ? response.headers.get("location") : null;
      if (location === null) return reply;
      const requestId = response.headers.get("x-request-id") ?? undefined;
      const refuse = (why: string): never => {
        void response.body?.cancel().catch(() => undefined);
        throw new AttemptFailure("redirect", true, `HTTP ${response.status} redirect not followed: ${why}`, requestId);
      };
      if (ctx.secretBody) refuse("the request carries credentials, which never follow a redirect");
      if (hop >= maxRedirects) refuse(`more than ${maxRedirects} redirects`);
      let target: URL;
      try {
        target = new URL(location, current.url);
      } catch {
        return refuse("its Location is not a valid URL");
      }
      if (target.protocol !== "https:" && target.protocol !== "http:") refuse("its Location is not an http(s) URL");
      if (target.protocol === "http:" && new URL(current.url).protocol === "https:")
        refuse("it leads from https to plain http");
      await response.body?.cancel().catch(() => undefined);
      const keepBody = response.status === 307 || response.status === 308;
      const headers = new Headers(current.headers);
      if (!trustedOrigins.includes(target.origin)) {
        if (keepBody && current.body !== null) refuse("it would send the request body to another origin");
        for (const name of CREDENTIAL_HEADERS) headers.delete(name);
      }
      const method = keepBody || current.method === "GET" || current.method === "HEAD" ? current.method : "GET";
      if (!keepBody) headers.delete("content-type");
      current = { url: target.href, method, headers, body: keepBody ? current.body : null, signal: current.signal };
    }
  };
}
