/**
 * The errors and texts only the session builds (a call not sent after a refused 401, a token that
 * expired with nothing to renew it): in a module of their own so that they load with the engine,
 * not with the client up front (a module the up-front code shares is bundled there whole).
 */
import { isBrowserLike } from "../internal/runtime.ts";
import { AuthenticationError } from "./api-error.ts";
import { UNRENEWABLE_TOKEN } from "./unrenewable.ts";

/** Why nothing can renew a token when the client was given only an access token. */
export const NOTHING_TO_RENEW = "the client has no refresh token or credentials";

/** Why a call was not sent: the access token expired and nothing can renew it (no HTTP answer: a SessionError). */
export const EXPIRED_UNRENEWABLE =
  "The access token has expired and there is no refresh token or credentials to renew it";

/**
 * A call not sent because the server refused the access token with a 401 and nothing could renew
 * it: the same class as the call that met the 401 (one cause, one class), carrying that 401's
 * status and request id, and why nothing could renew the token.
 */
export function notSentAfter401(
  reason: string,
  context: { readonly requestId?: string | undefined; readonly partnerId?: string | undefined },
): AuthenticationError {
  const id = context.requestId ? ` [request id ${context.requestId}]` : "";
  return new AuthenticationError(
    `Not sent: ${UNRENEWABLE_TOKEN} (${reason}); pass a new session with client.useSession() or new credentials with client.useCredentials()${id}`,
    { status: 401, requestId: context.requestId, partnerId: context.partnerId, expected: "a session" },
  );
}

/**
 * What to do about a session the client lacks or cannot renew, in the runtime it runs in: a page
 * may hold neither a password nor a refresh token (Section 5.4), so it gives `session` a provider.
 */
export function sessionRemedy(): string {
  return isBrowserLike()
    ? "in a page, give `session` an async function that asks your backend for a token (the backend calls client.accessToken()), and pass partnerId"
    : "pass credentials, a session with a refresh token, a tokenStore, or `session` as an async function that returns a token";
}
