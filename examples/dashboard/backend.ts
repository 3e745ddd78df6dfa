/**
 * Recipe, the dashboard's backend half: the endpoint a page's session provider calls. The backend
 * holds the partner's credentials (server-side only, Section 5.4) in one long-lived client; the
 * endpoint hands the page that client's current access token, renewed first when it is close to
 * expiry, with its expiry and the partner. The page never sees the password or the refresh token.
 *
 * A fetch-style handler, so it mounts in any server: `app.get("/api/audience-token", (c) =>
 * tokenEndpoint(client)(c.req.raw))` (Hono), a Next.js route handler's `GET`, or node:http through
 * an adapter (test/examples/dashboard.test.ts has one). Authenticate your own user before it: the
 * token acts for the whole partner.
 */
import type { AudienceClient } from "@audience-intelligence/client";

export function tokenEndpoint(client: AudienceClient): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== "GET") return new Response(null, { status: 405, headers: { allow: "GET" } });
    const { accessToken, expiresAt, partnerId } = await client.accessToken();
    // Never cached by a browser or a proxy: each page asks for the token the backend holds now.
    return Response.json({ accessToken, expiresAt, partnerId }, { headers: { "cache-control": "no-store" } });
  };
}
