/**
 * The authenticated session (Section 5): lazy single-flight sign-in, cached tokens, proactive and
 * single-flight refresh, the partner choice. Every token and the password are handed to the
 * redactor the moment they are known. This class orchestrates; each concern is its own module:
 *
 * - the /auth exchange (auth-exchange.ts): sign-in and refresh sent through the client's transport,
 *   their answers classified;
 * - the failure budget (failure-budget.ts). `/auth/*` has the tightest budget (Section 8.5): a
 *   refusal is remembered — a sign-in answered 400/401/403, or 200 without an AccessToken (an MFA
 *   challenge), and a refresh token refused with no credentials to fall back on, make every later
 *   call fail at once with the same typed error until the caller supplies new credentials or a new
 *   session (`useCredentials`, `useSession`); a refused refresh token is never sent again. A
 *   sign-in or refresh failing with 429, 5xx or a network error (after its own retries) starts one
 *   cool-down — its Retry-After, else Section 8.3's wait — during which later calls fail at once
 *   with that error; a refresh in cool-down leaves calls on the current token while it is valid;
 * - the token windows (token-windows.ts, held-tokens.ts): at most one refresh per call — the
 *   refresh margin is 60 s, or half the token's lifetime when shorter, and a token received after a
 *   call began serves that call whatever its margin. No call waits for a planned refresh: past the
 *   refresh margin it runs in the background (single flight) while calls keep the current token,
 *   until a hard margin of 10 s (a tenth of the lifetime, when shorter) before `exp`. A background
 *   refresh that fails starts the cool-down and is tried again after it; calls are not failed
 *   while the token is valid. A 401 still makes every call wait for the refresh it forces. `exp` is
 *   judged on the server's clock (`now`, internal/server-clock.ts), not the local one;
 * - the token store and the group's shared session (session-cache.ts, shared-session.ts): a cache,
 *   never a single point of failure (Section 5.8).
 *
 * - one renewal (renewal.ts): the refresh, the sign-in it falls back to, what a failure leaves;
 * - a token a 401 refused that nothing can renew (refused-token.ts): one cause, one class.
 *
 * What has no HTTP answer behind it (no session, an expired token nothing can renew) is a
 * `SessionError`; what /auth answered is an `AuthenticationError` or the status's own class; a call
 * answered 401 ends as that answer, and one not sent because of it as its "Not sent" form.
 */
import type { SessionShare } from "../coordination/coordinator.ts";
import { AudienceError } from "../errors/audience-error.ts";
import { SessionError } from "../errors/session-error.ts";
import { monotonicNow } from "../internal/clock.ts";
import { jwtExpiryMs } from "../internal/jwt.ts";
import type { Redactor } from "../internal/redact.ts";
import type { ClientConfig, Logger } from "../options.ts";
import type { Outcome } from "../transport/outcome.ts";
import type { OutgoingRequest } from "../transport/outgoing.ts";
import { AuthExchange, type AuthPath } from "./auth-exchange.ts";
import { FailureBudget } from "./failure-budget.ts";
import { HeldTokens } from "./held-tokens.ts";
import { type Cache, sessionCache } from "./lazy-cache.ts";
import { headerPartnerFromIdToken } from "./partner.ts";
import { ProvidedTokens } from "./provider.ts";
import { RefusedToken } from "./refused-token.ts";
import { type Credentials, Renewal } from "./renewal.ts";
import type { SharedSession } from "./shared-session.ts";
import type { HeldAccessToken, SessionTokens } from "./tokens.ts";

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
  readonly inspect?: (path: AuthPath, response: Response, body: unknown) => void;
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

export class Session {
  readonly #deps: SessionDeps;
  readonly #now: () => number;
  readonly #held: HeldTokens;
  readonly #budget: FailureBudget;
  readonly #cache: Cache;
  readonly #refused: RefusedToken;
  readonly #renewal: Renewal;
  readonly #provided: ProvidedTokens | undefined;
  #credentials: Credentials | undefined;
  #initial: Readonly<SessionTokens> | undefined;
  /** The last authorization handed out, reused while its token is current. */
  #current: Authorization | undefined;
  #partnerId: string | undefined;
  #establishing: Promise<void> | undefined;
  #renewing: Promise<void> | undefined;
  /** Counts the sessions the application gave (useSession, useCredentials): see renewal.ts. */
  #generation = 0;
  /** Counters for tests and diagnostics. */
  readonly stats = { signIns: 0, refreshes: 0 };

  constructor(deps: SessionDeps) {
    const { config, redactor, logger, share } = deps;
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
    const monotonic = deps.monotonic ?? monotonicNow;
    this.#held = new HeldTokens(redactor, this.#now, monotonic);
    // Loaded only with a token store or a coordinator that shares the session (lazy-cache.ts).
    this.#cache = sessionCache({ store: config.tokenStore, timeoutMs: config.timeoutMs, logger, share });
    this.#budget = new FailureBudget({
      retry: config.retry,
      monotonic,
      random: deps.random ?? Math.random,
      onCoolDown: (ms) => this.#cache.shareCoolDown(ms),
    });
    this.#refused = new RefusedToken({
      redactor,
      held: this.#held,
      budget: this.#budget,
      partnerId: () => this.partnerId,
    });
    const provider = config.sessionProvider;
    const allowBrowser = config.dangerouslyAllowBrowser;
    this.#provided = provider && new ProvidedTokens({ provider, timeoutMs: config.timeoutMs, allowBrowser, monotonic });
    const exchange = new AuthExchange({ ...deps, baseUrl: config.baseUrl, now: this.#now });
    this.#renewal = new Renewal({
      held: this.#held,
      budget: this.#budget,
      exchange,
      refused: this.#refused,
      credentials: () => this.#credentials,
      provided: this.#provided,
      received: (tokens, event, generation) => this.#received(tokens, event, generation),
    });
    this.#setCredentials(config.credentials);
    this.#initial = config.session;
    if (config.session) this.#held.hold({ ...config.session }, false);
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
    if (!current || this.#budget.refused || current.accessToken !== this.#held.tokens?.accessToken) return undefined;
    const window = this.#held.window(since);
    if (window === "mandatory") return undefined;
    if (window === "background") this.#renewInBackground();
    return current;
  }

  /** A current access token and the partner, signing in or refreshing first when needed. */
  async authorize(since?: number): Promise<Authorization> {
    if (this.#budget.refused) throw this.#refused.refusal();
    if (!this.#held.tokens) {
      this.#establishing ??= this.#establish().finally(() => {
        this.#establishing = undefined;
      });
      await this.#establishing;
    }
    // A refresh under way for a token past its hard margin (or refused with a 401) is about to
    // replace it: wait for it, do not send the old one. Its failure is reported to the call that
    // started it. Before the hard margin, a planned refresh runs in the background.
    if (this.#renewing && this.#held.pastHardMargin()) await this.#renewing.catch(() => undefined);
    const window = this.#held.window(since);
    if (window === "background") this.#renewInBackground();
    else if (window === "mandatory") await this.#renew().catch((e: unknown) => Promise.reject(this.#refused.waited(e)));
    if (this.#budget.refused) throw this.#refused.refusal();
    const tokens = this.#held.tokens;
    if (!tokens)
      throw new SessionError("No session: sign-in did not produce an access token", { expected: "a session" });
    const { partnerId, partnerIdPatterns } = this.#deps.config;
    this.#partnerId ??= partnerId ?? headerPartnerFromIdToken(tokens.idToken, partnerIdPatterns);
    if (this.#current?.accessToken !== tokens.accessToken)
      this.#current = { accessToken: tokens.accessToken, partnerId: this.#partnerId };
    return this.#current;
  }

  /**
   * After a 401 with `usedToken` (`requestId`: that 401's): refresh once, shared by every call that
   * saw it. True once renewed; else why nothing could renew it, and the 401 is the call's answer —
   * whatever the failure of the renewal, an answered call is an HTTP answer.
   */
  async reauthenticate(usedToken: string, requestId: string | null = null): Promise<true | string> {
    const tokens = this.#held.tokens;
    if (tokens && tokens.accessToken !== usedToken) return true; // another call already renewed it
    this.#refused.refused(usedToken, requestId);
    const renewable = tokens?.refreshToken || this.#credentials || this.#deps.share || this.#provided;
    if (this.#budget.refused || !renewable) return this.#refused.reason();
    return this.#renew().then(
      () => true as const,
      (error: unknown) => (error instanceof AudienceError ? this.#refused.reason(error) : Promise.reject(error)),
    );
  }

  /** The held access token, renewed first when within the refresh window, its expiry and the partner. */
  async accessToken(): Promise<HeldAccessToken> {
    await this.authorize();
    if (this.#held.window() !== "fresh") await this.#renew();
    const { accessToken, partnerId } = await this.authorize();
    return { accessToken, expiresAt: jwtExpiryMs(accessToken), partnerId };
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
    this.#held.hold({ ...tokens }, false);
  }

  #restart(): void {
    this.#generation += 1;
    this.#budget.reset();
    this.#held.clear();
    this.#refused.reset();
    this.#current = undefined;
    this.#partnerId = undefined;
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

  /** Tokens a sign-in or refresh produced: counted, held, and kept in the store and the group's record. */
  #received(tokens: SessionTokens, event: "sign-in" | "refresh", generation: number): void {
    if (event === "sign-in") this.stats.signIns += 1;
    else this.stats.refreshes += 1;
    // Asked before the application gave a newer session: that one stands (the answer is not held or kept).
    if (generation !== this.#generation) return;
    this.#deps.observe?.(event);
    this.#budget.succeeded();
    this.#held.hold(tokens, true);
    this.#cache.write(tokens);
  }

  /** The group's shared session, loaded on first use; undefined without a coordinator that shares it or its module. */
  #shared(): Promise<SharedSession | undefined> | undefined {
    return this.#cache.shared({
      adopt: (record, expiredToo) => {
        const adopted = this.#held.adopt(record, expiredToo);
        if (adopted) this.#budget.succeeded();
        return adopted;
      },
      coolDown: (ms) => this.#budget.groupCoolDown(ms),
      isCallError: (error) => error instanceof AudienceError,
    });
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

  async #establish(): Promise<void> {
    const generation = this.#generation;
    const shared = await this.#shared();
    if (shared) return shared.establish(() => this.#establishAlone(generation));
    return this.#establishAlone(generation);
  }

  async #establishAlone(generation: number): Promise<void> {
    const stored = await this.#cache.read();
    if (generation !== this.#generation) return; // the application gave a session meanwhile
    if (stored) return this.#held.hold(stored, false);
    if (this.#initial) return this.#held.hold({ ...this.#initial }, false);
    if (this.#provided) return this.#renewal.provide(this.#provided, generation);
    await this.#renewal.signIn(generation);
  }

  #renew(): Promise<void> {
    const generation = this.#generation;
    const alone = () => this.#renewal.renew(generation);
    this.#renewing ??= (this.#shared()?.then((s) => (s ? s.renew(alone) : alone())) ?? alone()).finally(() => {
      this.#renewing = undefined;
    });
    return this.#renewing;
  }
}
