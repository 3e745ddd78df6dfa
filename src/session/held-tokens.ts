/**
 * The tokens the session holds and what their clocks say (token-windows.ts decides the window).
 * `exp` is judged on the server's clock (`now`, internal/server-clock.ts), not the local one; when
 * the tokens arrived is kept on the monotonic clock, to compare with when a call began.
 */
import type { SharedSessionRecord } from "../coordination/coordinator.ts";
import { headerValueIssue } from "../guards/header-value.ts";
import { jwtExpiryMs } from "../internal/jwt.ts";
import type { Redactor } from "../internal/redact.ts";
import { expiredAt, postponedTo, type TokenTimes, type TokenWindow, tokenTimes, tokenWindow } from "./token-windows.ts";
import type { SessionTokens } from "./tokens.ts";

const NEVER: TokenTimes = { expiry: undefined, renewAt: Number.POSITIVE_INFINITY, hardAt: Number.POSITIVE_INFINITY };

export class HeldTokens {
  readonly #redactor: Redactor;
  readonly #now: () => number;
  readonly #monotonic: () => number;
  #tokens: SessionTokens | undefined;
  #times: TokenTimes = NEVER;
  /** When the current tokens arrived (monotonic); minus infinity for tokens from an option or a store. */
  #receivedAt = Number.NEGATIVE_INFINITY;
  /** The current token looked expired the moment it arrived: a clock matter, the issuing server is the judge. */
  #arrivedExpired = false;
  /** The access token a 401 refused: never valid again, whatever the clocks say. */
  #refusedToken: string | undefined;

  constructor(redactor: Redactor, now: () => number, monotonic: () => number) {
    this.#redactor = redactor;
    this.#now = now;
    this.#monotonic = monotonic;
  }

  get tokens(): SessionTokens | undefined {
    return this.#tokens;
  }

  /** @param received the tokens came from a sign-in or refresh just now (not an option, the store or the group) */
  hold(tokens: SessionTokens, received: boolean): void {
    this.#redactor.set("access", tokens.accessToken);
    this.#redactor.set("refresh", tokens.refreshToken);
    this.#redactor.set("id", tokens.idToken);
    this.#tokens = tokens;
    const now = this.#now();
    this.#receivedAt = received ? this.#monotonic() : Number.NEGATIVE_INFINITY;
    this.#times = tokenTimes(jwtExpiryMs(tokens.accessToken), now);
    const expiry = this.#times.expiry;
    this.#arrivedExpired = received && expiry !== undefined && expiry <= now;
  }

  /**
   * Holds the group's tokens when worth it: not ours already, not refused by a 401, header text,
   * not expired (unless `expiredToo`); true when held.
   */
  adopt(record: SharedSessionRecord, expiredToo: boolean): boolean {
    const t = record.tokens;
    if (!t || t.accessToken === this.#tokens?.accessToken || this.isRefused(t.accessToken)) return false;
    if (/\s/.test(t.accessToken) || headerValueIssue(t.accessToken)) return false;
    const expiry = jwtExpiryMs(t.accessToken);
    if (!expiredToo && expiry !== undefined && this.#now() >= expiry) return false;
    const { accessToken, refreshToken, idToken } = t;
    this.hold({ accessToken, ...(refreshToken ? { refreshToken } : {}), ...(idToken ? { idToken } : {}) }, false);
    return true;
  }

  /** No tokens: the next call establishes a session. The last expiry is kept (it still judges a refused token). */
  clear(): void {
    this.#tokens = undefined;
    this.#times = { ...NEVER, expiry: this.#times.expiry };
  }

  /** Forgets a refused refresh token: it is never sent again. */
  dropRefreshToken(): void {
    if (!this.#tokens) return;
    const { refreshToken: _refused, ...rest } = this.#tokens;
    this.#tokens = rest;
  }

  /** Which window the token is in for a call that began at `since` (monotonic). */
  window(since?: number): TokenWindow {
    const now = this.#now();
    return tokenWindow(this.#times, now, this.#freshFor(since, now));
  }

  /** Past the hard margin: a refresh under way is about to replace the token. */
  pastHardMargin(): boolean {
    return this.#now() >= this.#times.hardAt;
  }

  /** A 401 refused `token`: whatever its `exp` says, it is no longer valid. */
  refuse(token: string): void {
    this.#refusedToken = token;
    if (this.#tokens) this.#times = expiredAt(this.#times, this.#now());
  }

  /** Whether a 401 refused `accessToken` (true for none when no token was refused: nothing to compare). */
  isRefused(accessToken: string | undefined): boolean {
    return accessToken === this.#refusedToken;
  }

  /** The access token has not expired (or its expiry is unknown) and no 401 refused it: calls may keep using it. */
  stillValid(): boolean {
    if (this.#tokens?.accessToken === this.#refusedToken) return false;
    const expiry = this.#times.expiry;
    return expiry === undefined || this.#now() < expiry;
  }

  /** Calls keep the current token until it expires, or until `waitMs` (a cool-down's rest) ends, whichever is first. */
  postpone(waitMs: number): void {
    this.#times = postponedTo(this.#times, this.#now() + Math.max(0, waitMs));
  }

  /**
   * The server minted the token since the call began: it serves that call whatever its margin or
   * `exp` say (one refresh per call at most; a token that looks expired on arrival is a clock
   * matter, and the server that just issued it is the judge).
   */
  #freshFor(since: number | undefined, now: number): boolean {
    if (since === undefined || this.#receivedAt < since) return false;
    // Not once it has expired since it arrived: a call that waited longer than the token lives (a
    // 429's wait, the queue) would send a token the server refuses.
    const expiry = this.#times.expiry;
    return this.#arrivedExpired || expiry === undefined || now < expiry;
  }
}
