/**
 * The authenticated session (Section 5): lazy single-flight sign-in, cached tokens, proactive and
 * single-flight refresh, the partner choice. Every token and the password are handed to the
 * redactor the moment they are known.
 *
 * `/auth/*` has the tightest budget (Section 8.5), so the session spends it carefully:
 *
 * - A refusal is remembered. A sign-in answered 400/401/403, or 200 without an AccessToken (an MFA
 *   challenge), and a refresh token refused with no credentials to fall back on, make every later
 *   call fail at once with the same typed error, saying why, until the caller supplies new
 *   credentials or a new session (`useCredentials`, `useSession`). A refused refresh token is
 *   never sent again.
 * - Transient failures share one cool-down. A sign-in or refresh failing with 429, 5xx or a network
 *   error (after its own retries) starts a cool-down — its Retry-After, else Section 8.3's wait —
 *   during which later calls fail at once with that error instead of spending five more attempts
 *   each; a refresh in cool-down leaves calls on the current token while it is valid.
 * - At most one refresh per call: the refresh margin is 60 s, or half the token's lifetime when that
 *   is shorter, and a token received after a call began serves that call whatever its margin.
 * - No call waits for a planned refresh: past the refresh margin the refresh runs in the
 *   background (single flight) while calls keep the current token, until a hard margin of 10 s (a
 *   tenth of the lifetime, when shorter) before `exp`. A background refresh that fails starts the
 *   cool-down above and is tried again after it; calls are not failed while the token is valid.
 *   A 401 still makes every call wait for the refresh it forces.
 * - `exp` is judged on the server's clock (`now`, internal/server-clock.ts), not the local one.
 *
 * The token store is a cache, never a single point of failure (Section 5.8): a `get` that throws,
 * hangs past `timeoutMs` or returns something unusable is reported through the logger and treated
 * as absent; `set` runs in the background, and its failure is reported, not thrown into a call.
 */
import { TOKEN_FIELDS } from "../assumptions.ts";
import type { SessionShare, SharedSessionRecord } from "../coordination/coordinator.ts";
import { type ApiError, AuthenticationError, RateLimitError, ServerError } from "../errors/api-error.ts";
import { AudienceError } from "../errors/audience-error.ts";
import { errorFromResponse, unrenewableMessage } from "../errors/from-response.ts";
import { NetworkError } from "../errors/network-error.ts";
import { PartnerSelectionError } from "../errors/partner-selection-error.ts";
import { repeated } from "../errors/repeated.ts";
import { headerValueIssue } from "../guards/header-value.ts";
import { monotonicNow } from "../internal/clock.ts";
import { jwtExpiryMs } from "../internal/jwt.ts";
import type { Redactor } from "../internal/redact.ts";
import { withTimeout } from "../internal/with-timeout.ts";
import { CLIENT_DEFAULTS } from "../limits.ts";
import type { ClientConfig, Logger } from "../options.ts";
import { backoffDelayMs, rateLimitDelayMs } from "../transport/backoff.ts";
import type { Outcome } from "../transport/create-transport.ts";
import { OutgoingRequest } from "../transport/outgoing.ts";
import { expiredBeforeArrivalMs } from "./arrival.ts";
import { partnerFromIdToken } from "./partner.ts";
import type { SharedSession } from "./shared-session.ts";
import { storedSessionIssue } from "./token-store.ts";
import type { SessionTokens } from "./tokens.ts";

export interface SessionDeps {
  readonly config: ClientConfig;
  readonly redactor: Redactor;
  /** The caller's logger, redacted and unable to throw. */
  readonly logger: Logger;
  /** The client's transport: sign-in and refresh get the same retries and limits as any call. */
  readonly send: (request: OutgoingRequest) => Promise<Outcome>;
  /** Wall clock (token expiry), the server's when known. */
  readonly now?: () => number;
  /** Whether `now` is the server's time learned from a response's Date (session/arrival.ts). */
  readonly serverTimeKnown?: () => boolean;
  /** Monotonic clock (cool-downs). */
  readonly monotonic?: () => number;
  readonly random?: () => number;
  /** Shown each /auth response with its parsed body (drift reports, when `onDrift` is given). */
  readonly inspect?: (path: "/auth" | "/auth/refresh_token", response: Response, body: unknown) => void;
  /** Told of each sign-in and refresh (the metrics, when the `meter` option is given). */
  readonly observe?: (event: "sign-in" | "refresh") => void;
  /**
   * The group's shared session (the `coordinator` option): sign-in and refresh run under
   * its lock, and a process adopts the tokens another one stored instead of spending /auth again.
   */
  readonly share?: SessionShare | undefined;
}

export interface Authorization {
  readonly accessToken: string;
  readonly partnerId: string;
}

type Credentials = Readonly<{ username: string; password: string }>;

/** Sign-in and refresh statuses that say the credential itself was refused (Section 7: a failing refresh is a 400). */
const REFUSED = new Set([400, 401, 403]);

export class Session {
  readonly #deps: SessionDeps;
  readonly #now: () => number;
  readonly #monotonic: () => number;
  readonly #random: () => number;
  #credentials: Credentials | undefined;
  #initial: Readonly<SessionTokens> | undefined;
  #tokens: SessionTokens | undefined;
  /** When the current tokens arrived (monotonic), their access token's expiry and when it is due for refresh (wall). */
  #tokenAt = 0;
  /** The current token looked expired the moment it arrived: a clock matter, the issuing server is the judge. */
  #arrivedExpired = false;
  #expiry: number | undefined;
  #renewAt = Number.POSITIVE_INFINITY;
  /** The access token a 401 refused: never valid again, whatever the clocks say. */
  #refusedToken: string | undefined;
  /** Past this (wall, server time), calls wait for the renewal instead of using the current token. */
  #hardAt = Number.POSITIVE_INFINITY;
  /** The last authorization handed out, reused while its token is current. */
  #current: Authorization | undefined;
  #partnerId: string | undefined;
  #establishing: Promise<void> | undefined;
  #renewing: Promise<void> | undefined;
  /** A refused credential: later calls fail at once with it until new credentials or a new session. */
  #refusal: AudienceError | undefined;
  /** A transient sign-in or refresh failure: until `until` (monotonic), nothing is sent to /auth*. */
  #coolDown: { until: number; error: AudienceError; failures: number } | undefined;
  #storeWrites: Promise<void> = Promise.resolve();
  /** The shared part, once loaded (only with a coordinator that shares the session). */
  #sharing: Promise<SharedSession> | undefined;
  #shared: SharedSession | undefined;
  /** Counters for tests and diagnostics. */
  readonly stats = { signIns: 0, refreshes: 0 };

  constructor(deps: SessionDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
    this.#monotonic = deps.monotonic ?? monotonicNow;
    this.#random = deps.random ?? Math.random;
    this.#setCredentials(deps.config.credentials);
    this.#initial = deps.config.session;
    if (deps.config.session) this.#remember({ ...deps.config.session }, false);
  }

  /** Partner id, once known (after the first authenticated call, or when configured). */
  get partnerId(): string | undefined {
    return this.#deps.config.partnerId ?? this.#partnerId;
  }

  /**
   * The current token and partner, without waiting, when no sign-in or refresh is due.
   * @param since when the asking call began: a token received since then serves it regardless of its margin
   */
  current(since?: number): Authorization | undefined {
    const current = this.#current;
    if (!current || this.#refusal || current.accessToken !== this.#tokens?.accessToken) return undefined;
    const now = this.#now();
    if (now < this.#renewAt || this.#freshFor(since)) return current;
    if (now >= this.#hardAt) return undefined;
    this.#renewInBackground();
    return current;
  }

  /** A current access token and the partner, signing in or refreshing first when needed. */
  async authorize(since?: number): Promise<Authorization> {
    if (this.#refusal) throw this.#refused();
    if (!this.#tokens) {
      this.#establishing ??= this.#establish().finally(() => {
        this.#establishing = undefined;
      });
      await this.#establishing;
    }
    // A refresh under way for a token past its hard margin (or refused with a 401) is about to
    // replace it: wait for it, do not send the old one. Its failure is reported to the call that
    // started it. Before the hard margin, a planned refresh runs in the background.
    const now = this.#now();
    if (this.#renewing && now >= this.#hardAt) await this.#renewing.catch(() => undefined);
    if (this.#now() >= this.#renewAt && !this.#freshFor(since)) {
      if (this.#now() < this.#hardAt) this.#renewInBackground();
      else await this.#renew();
    }
    if (this.#refusal) throw this.#refused();
    const tokens = this.#tokens;
    if (!tokens) throw new AuthenticationError("No session: sign-in did not produce an access token", { status: 0 });
    this.#partnerId ??= this.#deps.config.partnerId ?? this.#partnerFrom(tokens.idToken);
    if (this.#current?.accessToken !== tokens.accessToken)
      this.#current = { accessToken: tokens.accessToken, partnerId: this.#partnerId };
    return this.#current;
  }

  /** After a 401 with `usedToken`: refresh once, shared by every call that saw it; false when nothing can renew it. */
  async reauthenticate(usedToken: string): Promise<boolean> {
    if (this.#tokens && this.#tokens.accessToken !== usedToken) return true; // another call already renewed it
    this.#refusedToken = usedToken; // refused by the server: whatever its `exp` says, no longer valid
    if (this.#tokens) {
      this.#expiry = Math.min(this.#expiry ?? Number.POSITIVE_INFINITY, this.#now());
      this.#renewAt = Math.min(this.#renewAt, this.#expiry);
      this.#hardAt = Math.min(this.#hardAt, this.#expiry);
    }
    const renewable = this.#tokens?.refreshToken || this.#credentials || this.#deps.share;
    return renewable ? this.#renew().then(() => true) : false;
  }

  /** New credentials: forgets the session, any remembered refusal and cool-down; the next call signs in. */
  useCredentials(credentials: Credentials): void {
    this.#setCredentials(credentials);
    this.#initial = undefined;
    this.#restart();
  }

  /** A new session: replaces the tokens, forgets any remembered refusal and cool-down. */
  useSession(tokens: Readonly<SessionTokens>): void {
    this.#initial = tokens;
    this.#restart();
    this.#remember({ ...tokens }, false);
  }

  #restart(): void {
    this.#refusal = undefined;
    this.#coolDown = undefined;
    this.#tokens = undefined;
    this.#current = undefined;
    this.#partnerId = undefined;
    this.#renewAt = Number.POSITIVE_INFINITY;
    this.#hardAt = Number.POSITIVE_INFINITY;
  }

  #setCredentials(credentials: Credentials | undefined): void {
    this.#credentials = credentials;
    // HTTP Basic's base64(username:password) is a form of the password too.
    this.#deps.redactor.set(
      "password",
      credentials?.password,
      credentials ? `${credentials.username}:${credentials.password}` : undefined,
    );
  }

  /** @param received the tokens came from a sign-in or refresh just now (not an option or the store) */
  #remember(tokens: SessionTokens, received: boolean): void {
    const { redactor } = this.#deps;
    redactor.set("access", tokens.accessToken);
    redactor.set("refresh", tokens.refreshToken);
    redactor.set("id", tokens.idToken);
    this.#tokens = tokens;
    const now = this.#now();
    this.#tokenAt = received ? this.#monotonic() : Number.NEGATIVE_INFINITY;
    this.#expiry = jwtExpiryMs(tokens.accessToken);
    this.#arrivedExpired = received && this.#expiry !== undefined && this.#expiry <= now;
    // Refresh 60 s before expiry, or at half the lifetime for a token that lives less than 2 minutes.
    const margin =
      this.#expiry === undefined
        ? 0
        : Math.min(CLIENT_DEFAULTS.tokenRefreshSkewMs, Math.max(0, this.#expiry - now) / 2);
    this.#renewAt = this.#expiry === undefined ? Number.POSITIVE_INFINITY : this.#expiry - margin;
    const hard =
      this.#expiry === undefined
        ? 0
        : Math.min(CLIENT_DEFAULTS.tokenHardMarginMs, Math.max(0, this.#expiry - now) / 10);
    this.#hardAt = this.#expiry === undefined ? Number.POSITIVE_INFINITY : this.#expiry - hard;
  }

  /** Adopts the group's tokens when worth it: not ours already, not refused by a 401, header text, not expired (unless `expiredToo`). */
  #adoptShared(record: SharedSessionRecord, expiredToo: boolean): boolean {
    const t = record.tokens;
    if (!t || t.accessToken === this.#tokens?.accessToken || t.accessToken === this.#refusedToken) return false;
    if (/\s/.test(t.accessToken) || headerValueIssue(t.accessToken)) return false;
    const expiry = jwtExpiryMs(t.accessToken);
    if (!expiredToo && expiry !== undefined && this.#now() >= expiry) return false;
    this.#remember(
      {
        accessToken: t.accessToken,
        ...(t.refreshToken ? { refreshToken: t.refreshToken } : {}),
        ...(t.idToken ? { idToken: t.idToken } : {}),
      },
      false,
    );
    this.#coolDown = undefined;
    return true;
  }

  /** The shared part (session/shared-session.ts), loaded on first use when a coordinator shares the session. */
  #sharedSession(share: SessionShare): Promise<SharedSession> {
    this.#sharing ??= import("./shared-session.ts").then((m) => {
      this.#shared = new m.SharedSession(share, {
        adopt: (record, expiredToo) => this.#adoptShared(record, expiredToo),
        coolDown: (ms) => {
          const until = this.#monotonic() + ms;
          if (this.#coolDown && this.#coolDown.until >= until) return;
          const error = new RateLimitError(
            "Not sent: another process of the group met a 429 or 5xx on /auth; the group waits (Section 8.5)",
            { status: 429, retryAfterMs: ms },
          );
          this.#coolDown = { until, error, failures: this.#coolDown?.failures ?? 1 };
        },
        isCallError: (error) => error instanceof AudienceError,
        warn: (message, error) => this.#warnStore(message, error),
      });
      return this.#shared;
    });
    return this.#sharing;
  }

  /** The planned refresh, off every call's path: its failure is the cool-down's to handle. */
  #renewInBackground(): void {
    if (this.#renewing) return;
    this.#renew().catch((error: unknown) =>
      this.#deps.logger.warn?.("a background refresh failed; calls keep the current token while it is valid", {
        error: error instanceof Error ? error.name : typeof error,
      }),
    );
  }

  /**
   * The server minted the token since the call began: it serves that call whatever its margin or
   * `exp` say (one refresh per call at most; a token that looks expired on arrival is a clock
   * matter, and the server that just issued it is the judge).
   */
  #freshFor(since: number | undefined): boolean {
    if (since === undefined || this.#tokenAt < since) return false;
    // Not once it has expired since it arrived: a call that waited longer than the token lives (a
    // 429's wait, the queue) would send a token the server refuses.
    return this.#arrivedExpired || this.#expiry === undefined || this.#now() < this.#expiry;
  }

  /** The access token has not expired (or its expiry is unknown) and no 401 refused it: calls may keep using it. */
  #stillValid(): boolean {
    if (this.#tokens?.accessToken === this.#refusedToken) return false;
    return this.#expiry === undefined || this.#now() < this.#expiry;
  }

  /** Calls keep the current token until it expires, or until a cool-down ends, whichever is first. */
  #postpone(): void {
    const coolDownLeft = this.#coolDown ? this.#coolDown.until - this.#monotonic() : Number.POSITIVE_INFINITY;
    this.#renewAt = Math.min(this.#expiry ?? Number.POSITIVE_INFINITY, this.#now() + Math.max(0, coolDownLeft));
  }

  async #establish(): Promise<void> {
    const share = this.#deps.share;
    if (share) {
      const shared = await this.#sharedSession(share);
      return shared.establish(() => this.#establishAlone());
    }
    return this.#establishAlone();
  }

  async #establishAlone(): Promise<void> {
    const stored = await this.#readStore();
    if (stored) return this.#remember(stored, false);
    if (this.#initial) return this.#remember({ ...this.#initial }, false);
    await this.#signIn();
  }

  #renew(): Promise<void> {
    const share = this.#deps.share;
    this.#renewing ??= (
      share ? this.#sharedSession(share).then((shared) => shared.renew(() => this.#renewNow())) : this.#renewNow()
    ).finally(() => {
      this.#renewing = undefined;
    });
    return this.#renewing;
  }

  async #renewNow(): Promise<void> {
    const refreshToken = this.#tokens?.refreshToken;
    if (refreshToken) {
      const cooling = this.#coolingDown();
      if (cooling) {
        if (this.#stillValid()) return this.#postpone();
        throw cooling;
      }
      const answer = await this.#send("/auth/refresh_token", { token: refreshToken }, true);
      if (!answer) return this.#postpone(); // a transient failure; the token is still valid
      const { response } = answer;
      const body = await this.#json(response);
      this.#deps.inspect?.("/auth/refresh_token", response, body);
      const access = response.ok ? this.#access(answer, body) : undefined;
      if (access) {
        const next = {
          accessToken: access,
          // Section 5.4: the refresh token does not rotate; keep it when the response omits it.
          refreshToken: this.#field(body, TOKEN_FIELDS.refresh, "refresh") ?? refreshToken,
          idToken: this.#field(body, TOKEN_FIELDS.id, "id") ?? this.#tokens?.idToken,
        };
        this.stats.refreshes += 1;
        this.#deps.observe?.("refresh");
        this.#coolDown = undefined;
        return this.#store(next as SessionTokens);
      }
      if (!response.ok && !REFUSED.has(response.status)) {
        const error = errorFromResponse(response, body, this.#deps.redactor, answer.record());
        this.#startCoolDown(error);
        if (this.#stillValid()) return this.#postpone();
        throw error;
      }
      // Refused (or answered without a usable token): this refresh token is never sent again.
      const { refreshToken: _refused, ...rest } = this.#tokens as SessionTokens;
      this.#tokens = rest;
      if (!this.#credentials) {
        const error = this.#authError(
          answer,
          response.ok
            ? "the refresh response carried no usable AccessToken and no credentials were given"
            : `the refresh token was refused (HTTP ${response.status}) and no credentials were given`,
          body,
        );
        if (this.#stillValid()) {
          this.#postpone();
          return;
        }
        throw this.#refuse(error);
      }
    } else if (!this.#credentials) {
      if (!this.#stillValid()) {
        throw new AuthenticationError(unrenewableMessage(this.#tokens?.accessToken === this.#refusedToken), {
          status: 0,
          expected: "a valid session",
        });
      }
      return this.#postpone(); // nothing to renew it with: use it until it expires
    }
    await this.#signIn();
  }

  async #signIn(): Promise<void> {
    const credentials = this.#credentials;
    if (!credentials)
      throw new AuthenticationError("No session and no credentials: pass credentials, session or tokenStore", {
        status: 0,
        expected: "a session",
      });
    const cooling = this.#coolingDown();
    if (cooling) throw cooling;
    const answer = await this.#send("/auth", { username: credentials.username, password: credentials.password });
    if (!answer) throw this.#coolDown?.error; // #send started the cool-down
    const { response } = answer;
    const body = await this.#json(response);
    this.#deps.inspect?.("/auth", response, body);
    if (!response.ok) {
      if (REFUSED.has(response.status))
        throw this.#refuse(this.#authError(answer, `sign-in refused (HTTP ${response.status})`, body));
      const error = errorFromResponse(response, body, this.#deps.redactor, answer.record());
      this.#startCoolDown(error);
      throw error;
    }
    const access = this.#access(answer, body);
    const refresh = this.#field(body, TOKEN_FIELDS.refresh, "refresh");
    const id = this.#field(body, TOKEN_FIELDS.id, "id");
    if (!access) {
      throw this.#refuse(
        this.#authError(
          answer,
          "the sign-in returned no tokens (HTTP 200 without an AccessToken: an MFA challenge or another step the client cannot complete)",
          body,
        ),
      );
    }
    this.stats.signIns += 1;
    this.#deps.observe?.("sign-in");
    this.#coolDown = undefined;
    await this.#store({
      accessToken: access,
      ...(refresh ? { refreshToken: refresh } : {}),
      ...(id ? { idToken: id } : {}),
    });
  }

  /**
   * POSTs to the /auth family. A transient failure that ended without a response (network,
   * timeout) starts the cool-down and resolves undefined when `tolerant`; else it is thrown.
   */
  async #send(path: string, body: unknown, tolerant = false): Promise<Outcome | undefined> {
    const url = `${this.#deps.config.baseUrl.href.replace(/\/$/, "")}${path}`;
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
      this.#startCoolDown(error);
      if (tolerant && this.#stillValid()) return undefined;
      throw error;
    }
  }

  #coolingDown(): AudienceError | undefined {
    const coolDown = this.#coolDown;
    if (!coolDown || this.#monotonic() >= coolDown.until) return undefined;
    const seconds = Math.ceil((coolDown.until - this.#monotonic()) / 1000);
    return repeated(
      coolDown.error,
      `Not sent: the last sign-in or refresh failed, and /auth is not tried again for ${seconds} s (Section 8.5: its budget is the tightest)`,
    );
  }

  /** Section 8.3: the server's Retry-After, else 5–10 s after a 429, else exponential backoff. */
  #startCoolDown(error: AudienceError, always = false): void {
    const transient = error instanceof RateLimitError || error instanceof ServerError || error instanceof NetworkError;
    if (!always && !transient) return;
    const { retry } = this.#deps.config;
    const failures = (this.#coolDown?.failures ?? 0) + 1;
    const wait =
      error instanceof RateLimitError
        ? (error.retryAfterMs ?? rateLimitDelayMs(retry, this.#random()))
        : backoffDelayMs(failures, retry, this.#random());
    this.#coolDown = { until: this.#monotonic() + wait, error, failures };
    this.#shared?.write({ coolDownMs: wait });
  }

  #refuse(error: AudienceError): AudienceError {
    this.#refusal = error;
    return error;
  }

  #refused(): AudienceError {
    return repeated(
      this.#refusal as AudienceError,
      "Not sent: the API refused this client's credentials earlier; pass new ones with client.useCredentials() or client.useSession()",
    );
  }

  #partnerFrom(idToken: string | undefined): string {
    const partner = partnerFromIdToken(idToken, this.#deps.config.partnerIdPatterns);
    const issue = headerValueIssue(partner);
    if (issue) {
      throw new PartnerSelectionError(
        `The partner id in the IdToken's groups claim cannot be sent as X-Preferred-Partner-Id: it ${issue}; pass partnerId`,
        [],
      );
    }
    return partner;
  }

  async #store(tokens: SessionTokens): Promise<void> {
    this.#remember(tokens, true);
    this.#shared?.write({ tokens: { ...tokens } });
    const store = this.#deps.config.tokenStore;
    if (!store) return;
    // In the background and in order: a slow or failing store never holds or fails a call.
    this.#storeWrites = this.#storeWrites.then(() =>
      withTimeout(() => store.set({ ...tokens }), this.#deps.config.timeoutMs, "tokenStore.set()").catch(
        (error: unknown) => this.#warnStore("tokenStore.set() failed; the session is kept in memory only", error),
      ),
    );
  }

  async #readStore(): Promise<SessionTokens | undefined> {
    const store = this.#deps.config.tokenStore;
    if (!store) return undefined;
    let value: unknown;
    try {
      value = await withTimeout(() => store.get(), this.#deps.config.timeoutMs, "tokenStore.get()");
    } catch (error) {
      this.#warnStore("tokenStore.get() failed; signing in instead", error);
      return undefined;
    }
    if (value === undefined || value === null) return undefined;
    const problem = storedSessionIssue(value);
    if (problem) {
      this.#warnStore(`tokenStore.get() returned an unusable session (${problem}); signing in instead`);
      return undefined;
    }
    const v = value as SessionTokens;
    return {
      accessToken: v.accessToken,
      ...(v.refreshToken ? { refreshToken: v.refreshToken } : {}),
      ...(v.idToken ? { idToken: v.idToken } : {}),
    };
  }

  /** Reports a token store failure by its kind only: its message may quote a token. */
  #warnStore(message: string, error?: unknown): void {
    const kind = error instanceof Error ? error.name : error === undefined ? undefined : typeof error;
    this.#deps.logger.warn?.(message, kind ? { error: kind } : undefined);
  }

  async #json(response: Response): Promise<unknown> {
    const text = await response.text();
    try {
      return text ? JSON.parse(text) : undefined;
    } catch {
      return text;
    }
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
  #access(answer: Outcome, body: unknown): string | undefined {
    const value = this.#field(body, TOKEN_FIELDS.access, "access");
    if (value === undefined) return undefined;
    const issue = /\s/.test(value) ? "has whitespace" : headerValueIssue(value);
    if (issue)
      throw this.#refuse(this.#authError(answer, `the AccessToken received is not header text: it ${issue}`, body));
    const late = expiredBeforeArrivalMs(value, answer.response, this.#deps.serverTimeKnown?.() ? this.#now : undefined);
    if (late === undefined) return value;
    const why = `the AccessToken received had expired ${Math.ceil(late / 1000)} s before the response's own Date`;
    const error = this.#authError(answer, `${why} (its exp is judged in the server's time, Section 5.2)`, body);
    this.#startCoolDown(error, true); // the next sign-in would likely bring the same: /auth's budget is tight
    throw error;
  }

  #authError(answer: Outcome, why: string, body?: unknown): AuthenticationError {
    const { response } = answer;
    const error: ApiError = errorFromResponse(response, body, this.#deps.redactor, answer.record());
    return new AuthenticationError(
      `Authentication failed: ${why}${error.requestId ? ` [request id ${error.requestId}]` : ""}`,
      { ...error, status: response.status, expected: "a session" },
    );
  }
}
