/**
 * The browser build's /auth exchange: none. A page cannot sign in or refresh (Section 5.4), and the
 * options that would need it are refused when the client is created (options/server-only.browser.ts),
 * so this stands in for the exchange the session builds, and fails if ever asked.
 */
import type { AudienceError } from "../errors/audience-error.ts";
import { SessionError } from "../errors/session-error.ts";
import type { AuthAnswer, ExchangeDeps } from "./auth-exchange.ts";

export type { AuthAnswer, ExchangeDeps } from "./auth-exchange.ts";

/** Why a renewal failed, for the message of a 401 it could not renew (without the request id). */
export function failureReason(error: AudienceError): string {
  const id = error.requestId ? ` [request id ${error.requestId}]` : "";
  return `the renewal failed: ${id ? error.message.split(id).join("") : error.message}`;
}

const refused = (): AuthAnswer => ({
  kind: "failed",
  error: new SessionError(
    "The browser build cannot sign in or refresh (Section 5.4: server-side only); give `session` an async function that asks your backend for an access token",
  ),
});

export class AuthExchange {
  // biome-ignore lint/complexity/noUselessConstructor: the server module's signature (session.ts builds it with its deps)
  constructor(_deps: ExchangeDeps) {}

  async signIn(_username: string, _password: string): Promise<AuthAnswer> {
    return refused();
  }

  async refresh(_refreshToken: string): Promise<AuthAnswer> {
    return refused();
  }
}
