/**
 * The one shape of a session's tokens: what a caller passes (`session`, `useSession`), what a token
 * store keeps and what a coordinator shares. Treat every field as a secret.
 */
export interface SessionTokens {
  /** The bearer token (about 1 hour, Section 5.2). */
  accessToken: string;
  /** Mints new access tokens (Section 5.4); server-side only, refused in a browser unless `dangerouslyAllowBrowser`. */
  refreshToken?: string;
  /** Carries the groups claim the partner id is chosen from (Section 5.3). */
  idToken?: string;
}

/** What `client.accessToken()` returns: what a backend hands a page's session provider. */
export interface HeldAccessToken {
  /** The bearer token; a secret. */
  accessToken: string;
  /** Its `exp` in epoch ms (the server's time, Section 5.2); undefined for a token without one. */
  expiresAt: number | undefined;
  /** The partner the client sends it with (`X-Preferred-Partner-Id`): pass it as the page's `partnerId`. */
  partnerId: string;
}

/**
 * The `session` option as an async function: the application's way to get an access token when the
 * client needs one (a page asks its backend, which calls `client.accessToken()`). An access token
 * names no partner: give `partnerId` too, unless the provider returns the IdToken.
 */
export type SessionProvider = () => Promise<{
  /** The access token to send (Section 5.2: about an hour). */
  accessToken: string;
  /** The IdToken, when the backend hands it over: the partner is then read from its groups claim. */
  idToken?: string;
}>;
