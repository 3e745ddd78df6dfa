import { AudienceError } from "./audience-error.ts";

/**
 * No call was sent because the client has no session it may use, and the API gave no answer to
 * report (an `AuthenticationError` is the API's answer): no credentials, session or token store to
 * sign in with, or an access token that expired or was refused by a 401 with no refresh token or
 * credentials to renew it (Section 5). Pass new ones with `client.useCredentials()` or
 * `client.useSession()`.
 */
export class SessionError extends AudienceError {
  /** The class name as a literal, stable across bundlers and minifiers. */
  override readonly name = "SessionError";
}
