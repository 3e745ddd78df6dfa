/**
 * Sign-in, refresh and token expiry as Section 5 says: any username and password sign in; the
 * IdToken's groups claim names the partner the mock serves (5.3); an access token lives about an
 * hour (5.2, 8.6) — seconds under token-expiry — on the server's clock; the refresh token does not
 * rotate (5.4) and a refused refresh is a 400 (7).
 */
import { type Answer, json } from "./answer.ts";
import { mintJwt } from "./jwt.ts";
import type { Route, RouteContext } from "./route-context.ts";

const USER = "5f0c2a9e-mock-user";

function accessAndId(context: RouteContext): { AccessToken: string; IdToken: string } {
  const { serverNow, faults, partnerId, state } = context;
  const expiresAt = serverNow + faults.tokenLifetimeMs;
  const times = { iat: Math.floor(serverNow / 1000), exp: Math.ceil(expiresAt / 1000) };
  const AccessToken = mintJwt({ sub: USER, token_use: "access", ...times });
  state.accessTokens.set(AccessToken, expiresAt);
  const IdToken = mintJwt({ sub: USER, token_use: "id", ...times, groups: [partnerId, "analysts"] });
  state.secrets.add(AccessToken);
  state.secrets.add(IdToken);
  return { AccessToken, IdToken };
}

export const signIn: Route = (context) => {
  if (context.method !== "POST" || context.path !== "/auth") return undefined;
  const RefreshToken = `mock-refresh-${context.state.nextId("session")}`;
  context.state.secrets.add(RefreshToken);
  return json(200, { ...accessAndId(context), RefreshToken });
};

export const refresh: Route = (context) => {
  if (context.method !== "POST" || context.path !== "/auth/refresh_token") return undefined;
  return context.faults.refreshRefused
    ? json(400, { code: "error.auth.refresh_refused" })
    : json(200, accessAndId(context));
};

/**
 * A 401 for an access token the mock minted that has expired on the server's clock. Tokens it did
 * not mint (a test's own `accessToken: "test-token"`) are accepted, as Prism accepts any bearer.
 */
export function expiredToken(
  token: string | undefined,
  expiries: Map<string, number>,
  serverNow: number,
): Answer | undefined {
  const expiresAt = token === undefined ? undefined : expiries.get(token);
  return expiresAt !== undefined && serverNow >= expiresAt
    ? json(401, { code: "error.auth.token_expired", message: "The access token has expired" })
    : undefined;
}
