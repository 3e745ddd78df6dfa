/**
 * Follows redirects by hand so that credentials and the partner header go only to the API's
 * origins: a hop to another origin drops Authorization, Cookie and X-Preferred-Partner-Id.
 */

import { PARTNER_HEADER } from "./auth-policy.ts";
import { AttemptFailure } from "./failure.ts";
import type { Policy } from "./policy.ts";

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export function redirectPolicy(trustedOrigins: readonly string[], maxRedirects: number): Policy {
  return async (attempt, ctx, next) => {
    let current = attempt;
    for (let hop = 0; ; hop++) {
      const response = await next(current, ctx);
      const location = REDIRECTS.has(response.status) ? response.headers.get("location") : null;
      if (!location) return response;
      if (hop >= maxRedirects) throw new AttemptFailure("network", true, `more than ${maxRedirects} redirects`);
      await response.body?.cancel().catch(() => undefined);
      const target = new URL(location, current.url);
      const headers = new Headers(current.headers);
      if (!trustedOrigins.includes(target.origin)) {
        for (const name of ["authorization", "cookie", "proxy-authorization", PARTNER_HEADER]) headers.delete(name);
      }
      const keepBody = response.status === 307 || response.status === 308;
      const method = keepBody || current.method === "GET" || current.method === "HEAD" ? current.method : "GET";
      if (!keepBody) headers.delete("content-type");
      current = { url: target.href, method, headers, body: keepBody ? current.body : null, signal: current.signal };
    }
  };
}
