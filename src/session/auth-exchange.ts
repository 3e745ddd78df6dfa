/**
 * The /auth exchange (Section 5.1, 5.4): sign-in and refresh sent as standard requests through the
 * client's transport (the same retries and limits as any call), the body read, shown to `inspect`
 * (drift), and the answer classified. The one place the session sends and builds errors from /auth
 * answers. Every token received is handed to the redactor the moment it is read.
 */
import { TOKEN_FIELDS } from "../assumptions.ts";
import { type ApiError, AuthenticationError } from "../errors/api-error.ts";
import type { AudienceError } from "../errors/audience-error.ts";
import { errorFromResponse } from "../errors/from-response.ts";
import { NetworkError } from "../errors/network-error.ts";
import { SessionError } from "../errors/session-error.ts";
import { headerValueIssue } from "../guards/header-value.ts";
import type { Redactor } from "../internal/redact.ts";
import type { Outcome } from "../transport/outcome.ts";
import { OutgoingRequest } from "../transport/outgoing.ts";
import { expiredBeforeArrivalMs } from "./arrival.ts";
import type { SessionTokens } from "./tokens.ts";

export type AuthPath = "/auth" | "/auth/refresh_token";

export interface ExchangeDeps {
  readonly baseUrl: URL;
  readonly redactor: Redactor;
  /** The client's transport. */
  readonly send: (request: OutgoingRequest) => Promise<Outcome>;
  /** Wall clock, the server's when known. */
  readonly now: () => number;
  /** Whether `now` is the server's time learned from a response's Date (session/arrival.ts). */
  readonly serverTimeKnown?: (() => boolean) | undefined;
  /** Shown each /auth response with its parsed body (drift reports). */
  readonly inspect?: ((path: AuthPath, response: Response, body: unknown) => void) | undefined;
}

/** What a sign-in or refresh came to. */
export type AuthAnswer =
  /** Tokens (a refresh's IdToken is undefined when the body omits it). */
  | { readonly kind: "tokens"; readonly tokens: SessionTokens }
  /** The credential was refused (400, 401, 403), or the answer had no AccessToken. */
  | { readonly kind: "refused"; readonly error: AuthenticationError }
  /** No answer (a network error), or another error status: a transient one starts the cool-down. */
  | { readonly kind: "failed"; readonly error: AudienceError }
  /** An AccessToken the client must not use: not header text (remembered as a refusal). */
  | { readonly kind: "unusable"; readonly error: AuthenticationError }
  /**
   * Tokens whose AccessToken had expired before the response's own Date (Section 5.2: `exp` is the
   * server's time): refreshed once with the refresh token they carry; `error` when that fails too.
   */
  | { readonly kind: "expired"; readonly tokens: SessionTokens; readonly error: AudienceError };

/** Why each sign-in or refresh failed, in words that quote no request id (a later 401's message says it). */
const REASONS = new WeakMap<AudienceError, string>();

/**
 * Why a sign-in or refresh failed, for the message of a 401 it could not renew: the exchange's own
 * words when it built the error, else the error's message without its request id.
 */
export function failureReason(error: AudienceError): string {
  const why = REASONS.get(error);
  if (why) return why;
  const id = error.requestId ? ` [request id ${error.requestId}]` : "";
  return `the renewal failed: ${id ? error.message.split(id).join("") : error.message}`;
}

/** Sign-in and refresh statuses that say the credential itself was refused (Section 7: a failing refresh is a 400). */
const REFUSED = new Set([400, 401, 403]);

/** An /auth answer read: its response, its body (JSON when it parses), the call's record for errors. */
interface Read {
  readonly response: Response;
  readonly body: unknown;
  readonly record: Outcome["record"];
}

export class AuthExchange {
  readonly #deps: ExchangeDeps;

  constructor(deps: ExchangeDeps) {
    this.#deps = deps;
  }

  async signIn(username: string, password: string): Promise<AuthAnswer> {
    const sent = await this.#post("/auth", { username, password });
    if ("kind" in sent) return sent;
    const read = await this.#read("/auth", sent);
    const { response, body } = read;
    if (!response.ok) {
      if (REFUSED.has(response.status)) return this.#refused(read, `sign-in refused (HTTP ${response.status})`);
      return { kind: "failed", error: errorFromResponse(response, body, this.#deps.redactor, sent.record()) };
    }
    const access = this.#access(read);
    if (access && "kind" in access) return access;
    const refreshToken = this.#field(body, TOKEN_FIELDS.refresh, "refresh");
    const idToken = this.#field(body, TOKEN_FIELDS.id, "id");
    if (!access) {
      const why =
        "the sign-in returned no tokens (HTTP 200 without an AccessToken: an MFA challenge or another step the client cannot complete)";
      return this.#refused(read, why);
    }
    const { token: accessToken } = access;
    const tokens = { accessToken, ...(refreshToken ? { refreshToken } : {}), ...(idToken ? { idToken } : {}) };
    return this.#answer(read, tokens, access.lateMs, "sign-in");
  }

  /** A refresh; its `refused` error is the one to throw when no credentials can sign in instead. */
  async refresh(refreshToken: string): Promise<AuthAnswer> {
    const sent = await this.#post("/auth/refresh_token", { token: refreshToken });
    if ("kind" in sent) return sent;
    const read = await this.#read("/auth/refresh_token", sent);
    const { response, body } = read;
    const access = response.ok ? this.#access(read) : undefined;
    if (access && "kind" in access) return access;
    if (access) {
      // Section 5.4: the refresh token does not rotate; keep it when the response omits it.
      const tokens = {
        accessToken: access.token,
        refreshToken: this.#field(body, TOKEN_FIELDS.refresh, "refresh") ?? refreshToken,
        idToken: this.#field(body, TOKEN_FIELDS.id, "id"),
      };
      return this.#answer(read, tokens as SessionTokens, access.lateMs, "refresh");
    }
    if (!response.ok && !REFUSED.has(response.status))
      return { kind: "failed", error: errorFromResponse(response, body, this.#deps.redactor, sent.record()) };
    const why = response.ok
      ? "the refresh response carried no usable AccessToken and no credentials were given"
      : `the refresh token was refused (HTTP ${response.status}) and no credentials were given`;
    return this.#refused(read, why);
  }

  /** POSTs to the /auth family; a failure that ended without a response (network, timeout) is an answer too. */
  async #post(path: AuthPath, body: unknown): Promise<Outcome | AuthAnswer> {
    const url = `${this.#deps.baseUrl.href.replace(/\/$/, "")}${path}`;
    try {
      return await this.#deps.send(
        new OutgoingRequest(url, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify(body),
        }),
      );
    } catch (error) {
      if (!(error instanceof NetworkError)) throw error;
      return { kind: "failed", error };
    }
  }

  async #read(path: AuthPath, outcome: Outcome): Promise<Read> {
    const { response, parsed } = outcome;
    let body: unknown = parsed?.data;
    if (!parsed) {
      // Not a 2xx JSON body the transport read already: an error's body, whatever its form.
      const text = await response.text();
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
    }
    this.#deps.inspect?.(path, response, body);
    return { response, body, record: outcome.record };
  }

  /** A token field of a sign-in or refresh body, redacted from here on. */
  #field(body: unknown, name: string, slot: "access" | "refresh" | "id"): string | undefined {
    const value = typeof body === "object" && body !== null ? (body as Record<string, unknown>)[name] : undefined;
    if (typeof value !== "string" || !value) return undefined;
    this.#deps.redactor.set(slot, value);
    return value;
  }

  /**
   * The AccessToken of a sign-in or refresh body. It becomes the `Authorization` header of every
   * call, so a token that is not header text (CR, LF, NUL, non-Latin-1) is refused here, with an
   * error that does not quote it, instead of failing every call with a raw TypeError that does.
   */
  #access(read: Read): { token: string; lateMs: number | undefined } | AuthAnswer | undefined {
    const { response, body } = read;
    const value = this.#field(body, TOKEN_FIELDS.access, "access");
    if (value === undefined) return undefined;
    const issue = /\s/.test(value) ? "has whitespace" : headerValueIssue(value);
    if (issue) {
      const error = this.#authError(read, `the AccessToken received is not header text: it ${issue}`);
      return { kind: "unusable", error };
    }
    const { now, serverTimeKnown } = this.#deps;
    return { token: value, lateMs: expiredBeforeArrivalMs(value, response, serverTimeKnown?.() ? now : undefined) };
  }

  /** Tokens, or tokens expired on arrival (`lateMs`: how long before the response's Date). */
  #answer(read: Read, tokens: SessionTokens, lateMs: number | undefined, what: string): AuthAnswer {
    if (lateMs === undefined) return { kind: "tokens", tokens };
    const requestId = errorFromResponse(read.response, read.body, this.#deps.redactor, read.record()).requestId;
    const error = new SessionError(
      `The server's tokens are expired on arrival: the AccessToken the ${what} returned had expired ${Math.ceil(lateMs / 1000)} s before the response's own Date (Section 5.2: exp is the server's time), and a refresh cannot mend that; check the API's clock or its token issuer${requestId ? ` [request id ${requestId}]` : ""}`,
      { requestId, expected: "a session" },
    );
    return { kind: "expired", tokens, error };
  }

  #refused(read: Read, why: string): AuthAnswer {
    return { kind: "refused", error: this.#authError(read, why) };
  }

  #authError({ response, body, record }: Read, why: string): AuthenticationError {
    const error: ApiError = errorFromResponse(response, body, this.#deps.redactor, record());
    const failure = new AuthenticationError(
      `Authentication failed: ${why}${error.requestId ? ` [request id ${error.requestId}]` : ""}`,
      { ...error, status: response.status, expected: "a session" },
    );
    REASONS.set(failure, why);
    return failure;
  }
}
