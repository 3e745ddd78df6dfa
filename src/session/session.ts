/**
 * The authenticated session (Section 5): lazy single-flight sign-in, cached tokens, proactive and
 * single-flight refresh, the partner choice. Every token and the password are handed to the
 * redactor the moment they are known.
 */
import { TOKEN_FIELDS } from "../assumptions.ts";
import { AuthenticationError } from "../errors/api-error.ts";
import { errorFromResponse } from "../errors/from-response.ts";
import { jwtExpiryMs } from "../internal/jwt.ts";
import type { Redactor } from "../internal/redact.ts";
import { CLIENT_DEFAULTS } from "../limits.ts";
import type { ClientConfig } from "../options.ts";
import { OutgoingRequest } from "../transport/outgoing.ts";
import { partnerFromIdToken } from "./partner.ts";
import type { StoredSession } from "./token-store.ts";

export interface SessionDeps {
  readonly config: ClientConfig;
  readonly redactor: Redactor;
  /** The client's transport: sign-in and refresh get the same retries and limits as any call. */
  readonly send: (request: OutgoingRequest) => Promise<Response>;
  readonly now?: () => number;
}

export interface Authorization {
  readonly accessToken: string;
  readonly partnerId: string;
}

export class Session {
  readonly #deps: SessionDeps;
  readonly #now: () => number;
  #tokens: StoredSession | undefined;
  /** When the access token is due for refresh (its expiry less the skew); decoded once per token. */
  #renewAt = Number.POSITIVE_INFINITY;
  /** The last authorization handed out, reused while its token is current. */
  #current: Authorization | undefined;
  #partnerId: string | undefined;
  #establishing: Promise<void> | undefined;
  #renewing: Promise<void> | undefined;
  /** Counters for tests and diagnostics. */
  readonly stats = { signIns: 0, refreshes: 0 };

  constructor(deps: SessionDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
    deps.redactor.add(deps.config.credentials?.password);
    this.#remember(deps.config.session);
  }

  /** Partner id, once known (after the first authenticated call, or when configured). */
  get partnerId(): string | undefined {
    return this.#deps.config.partnerId ?? this.#partnerId;
  }

  /** The current token and partner, without waiting, when no sign-in or refresh is due. */
  current(): Authorization | undefined {
    const current = this.#current;
    if (!current || this.#renewing || current.accessToken !== this.#tokens?.accessToken) return undefined;
    return this.#now() < this.#renewAt ? current : undefined;
  }

  /** A current access token and the partner, signing in or refreshing first when needed. */
  async authorize(): Promise<Authorization> {
    if (!this.#tokens) {
      this.#establishing ??= this.#establish().finally(() => {
        this.#establishing = undefined;
      });
      await this.#establishing;
    }
    // A refresh under way (after a 401) is about to replace the token: wait for it, do not send
    // the old one. Its failure is reported to the call that started it.
    if (this.#renewing) await this.#renewing.catch(() => undefined);
    if (this.#now() >= this.#renewAt) await this.#renew();
    const tokens = this.#tokens;
    if (!tokens) throw new AuthenticationError("No session: sign-in did not produce an access token", { status: 0 });
    this.#partnerId ??=
      this.#deps.config.partnerId ?? partnerFromIdToken(tokens.idToken, this.#deps.config.partnerIdPatterns);
    if (this.#current?.accessToken !== tokens.accessToken)
      this.#current = { accessToken: tokens.accessToken, partnerId: this.#partnerId };
    return this.#current;
  }

  /** After a 401 with `usedToken`: refresh once, shared by every call that saw the same token. */
  async reauthenticate(usedToken: string): Promise<void> {
    if (this.#tokens && this.#tokens.accessToken !== usedToken) return; // another call already renewed it
    await this.#renew();
  }

  #remember(tokens: StoredSession | undefined): void {
    if (!tokens) return;
    const { redactor } = this.#deps;
    redactor.add(tokens.accessToken);
    redactor.add(tokens.refreshToken);
    redactor.add(tokens.idToken);
    this.#tokens = tokens;
    const expiry = jwtExpiryMs(tokens.accessToken);
    this.#renewAt = expiry === undefined ? Number.POSITIVE_INFINITY : expiry - CLIENT_DEFAULTS.tokenRefreshSkewMs;
  }

  async #establish(): Promise<void> {
    const stored = await this.#deps.config.tokenStore?.get();
    if (stored?.accessToken) return this.#remember({ ...stored });
    if (this.#deps.config.session) return this.#remember({ ...this.#deps.config.session });
    await this.#signIn();
  }

  #renew(): Promise<void> {
    this.#renewing ??= this.#renewNow().finally(() => {
      this.#renewing = undefined;
    });
    return this.#renewing;
  }

  async #renewNow(): Promise<void> {
    const refreshToken = this.#tokens?.refreshToken;
    if (refreshToken) {
      const response = await this.#post("/auth/refresh_token", { token: refreshToken });
      if (response.ok) {
        const body = await this.#json(response);
        const next = {
          accessToken: this.#field(body, TOKEN_FIELDS.access),
          // Section 5.4: the refresh token does not rotate; keep it when the response omits it.
          refreshToken: this.#field(body, TOKEN_FIELDS.refresh) ?? refreshToken,
          idToken: this.#field(body, TOKEN_FIELDS.id) ?? this.#tokens?.idToken,
        };
        if (!next.accessToken) throw this.#authError(response, "the refresh response carried no AccessToken");
        this.stats.refreshes += 1;
        return this.#store(next as StoredSession);
      }
      // Section 7: a failing refresh is a 400; sign in again when we can.
      if (response.status !== 400 || !this.#deps.config.credentials) {
        throw response.status === 400
          ? this.#authError(response, "the refresh token was refused (HTTP 400) and no credentials were given")
          : errorFromResponse(response, await this.#json(response), this.#deps.redactor);
      }
    } else if (!this.#deps.config.credentials) {
      const expiry = jwtExpiryMs(this.#tokens?.accessToken ?? "");
      if (expiry !== undefined && expiry <= this.#now()) {
        throw new AuthenticationError(
          "The access token has expired and there is no refresh token or credentials to renew it",
          { status: 0, expected: "a valid session" },
        );
      }
      return; // not expired yet and nothing to renew it with: use it until the server says otherwise
    }
    await this.#signIn();
  }

  async #signIn(): Promise<void> {
    const credentials = this.#deps.config.credentials;
    if (!credentials)
      throw new AuthenticationError("No session and no credentials: pass credentials, session or tokenStore", {
        status: 0,
        expected: "a session",
      });
    const response = await this.#post("/auth", { username: credentials.username, password: credentials.password });
    const body = await this.#json(response);
    if (!response.ok) {
      throw response.status === 400 || response.status === 401
        ? this.#authError(response, `sign-in refused (HTTP ${response.status})`, body)
        : errorFromResponse(response, body, this.#deps.redactor);
    }
    const access = this.#field(body, TOKEN_FIELDS.access);
    if (!access) throw this.#authError(response, "the sign-in response carried no AccessToken");
    this.stats.signIns += 1;
    const refresh = this.#field(body, TOKEN_FIELDS.refresh);
    const id = this.#field(body, TOKEN_FIELDS.id);
    await this.#store({
      accessToken: access,
      ...(refresh ? { refreshToken: refresh } : {}),
      ...(id ? { idToken: id } : {}),
    });
  }

  async #store(tokens: StoredSession): Promise<void> {
    this.#remember(tokens);
    await this.#deps.config.tokenStore?.set({ ...tokens });
  }

  #post(path: string, body: unknown): Promise<Response> {
    const url = `${this.#deps.config.baseUrl.href.replace(/\/$/, "")}${path}`;
    return this.#deps.send(
      new OutgoingRequest(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(body),
      }),
    );
  }

  async #json(response: Response): Promise<unknown> {
    const text = await response.text();
    try {
      return text ? JSON.parse(text) : undefined;
    } catch {
      return text;
    }
  }

  #field(body: unknown, name: string): string | undefined {
    const value = typeof body === "object" && body !== null ? (body as Record<string, unknown>)[name] : undefined;
    if (typeof value !== "string" || !value) return undefined;
    this.#deps.redactor.add(value);
    return value;
  }

  #authError(response: Response, why: string, body?: unknown): AuthenticationError {
    const error = errorFromResponse(response, body, this.#deps.redactor);
    return new AuthenticationError(
      `Authentication failed: ${why}${error.requestId ? ` [request id ${error.requestId}]` : ""}`,
      {
        status: response.status,
        code: error.code,
        body: error.body,
        headers: error.headers,
        requestId: error.requestId,
        method: error.method,
        path: error.path,
        environment: error.environment,
        request: error.request,
        attempts: error.attempts,
        expected: "a session",
      },
    );
  }
}
