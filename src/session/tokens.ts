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
