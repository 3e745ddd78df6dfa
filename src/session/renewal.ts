/**
 * Renewing the session's tokens (Section 5.1, 5.4): the refresh, the sign-in it falls back to, and
 * what each failure leaves. The session runs one renewal at a time (single flight, under the
 * group's lock when shared); this module decides what that one renewal sends and concludes.
 *
 * - A refused refresh token or password is remembered and never sent again, by any call (Section
 *   8.5); a refused refresh token falls back to the credentials, once.
 * - A transient failure starts the cool-down; calls keep the current token while it is valid.
 * - With nothing to renew the token (only an access token was given), calls keep it until it
 *   expires; then a call fails with a `SessionError` (no HTTP answer), or with the "Not sent" form
 *   of the 401 that refused it (refused-token.ts).
 */
import type { AudienceError } from "../errors/audience-error.ts";
import { SessionError } from "../errors/session-error.ts";
import { EXPIRED_UNRENEWABLE, sessionRemedy } from "../errors/session-refusals.ts";
import { CLIENT_DEFAULTS } from "../limits.ts";
import type { AuthAnswer, AuthExchange } from "./auth-exchange.ts";
import type { FailureBudget } from "./failure-budget.ts";
import type { HeldTokens } from "./held-tokens.ts";
import type { ProvidedTokens } from "./provider.ts";
import type { RefusedToken } from "./refused-token.ts";
import type { SessionTokens } from "./tokens.ts";

export type Credentials = Readonly<{ username: string; password: string }>;

export interface RenewalDeps {
  readonly held: HeldTokens;
  readonly budget: FailureBudget;
  readonly exchange: AuthExchange;
  readonly refused: RefusedToken;
  readonly credentials: () => Credentials | undefined;
  /** The `session` option's function, when it is one. */
  readonly provided: ProvidedTokens | undefined;
  /** Tokens a sign-in or refresh produced: counted, held, and kept in the store and the group's record. */
  /**
   * `generation`: the session's count of sessions the application gave (`useSession`,
   * `useCredentials`) when this renewal began; an answer to an earlier one is not held over a newer one.
   */
  readonly received: (tokens: SessionTokens, event: "sign-in" | "refresh", generation: number) => void;
}

export class Renewal {
  readonly #deps: RenewalDeps;

  constructor(deps: RenewalDeps) {
    this.#deps = deps;
  }

  /** Refreshes, else signs in, else keeps the token while it is valid; throws what the call fails with. */
  async renew(generation: number): Promise<void> {
    const { held, budget, refused, exchange } = this.#deps;
    if (budget.refused) throw refused.refusal();
    const tokens = held.tokens;
    const refreshToken = tokens?.refreshToken;
    const credentials = this.#deps.credentials();
    if (!refreshToken && this.#deps.provided) return this.provide(this.#deps.provided, generation);
    if (refreshToken) {
      const cooling = budget.coolingDown();
      if (cooling) return this.#keepOrThrow(cooling);
      const answer = await this.#settle(await exchange.refresh(refreshToken));
      if (answer.kind === "tokens") {
        const { tokens: next } = answer; // an IdToken the response omits stays the one held
        return this.#deps.received(
          { ...next, idToken: next.idToken ?? held.tokens?.idToken } as SessionTokens,
          "refresh",
          generation,
        );
      }
      if (answer.kind !== "refused") return this.#keepOrThrow(this.#failed(answer));
      // Refused (or answered without a usable token): this refresh token is never sent again.
      held.dropRefreshToken();
      if (!credentials) return this.#keepOrThrow(answer.error, true);
    } else if (!credentials) {
      if (held.stillValid()) return this.#postpone(); // nothing to renew it with: use it until it expires
      if (refused.byServer()) throw refused.notSent();
      throw new SessionError(`${EXPIRED_UNRENEWABLE}: ${sessionRemedy()}`, { expected: "a valid session" });
    }
    await this.signIn(generation);
  }

  /**
   * Tokens from the session provider (provider.ts). While the held token is valid, a failure
   * leaves calls on it and the provider is asked again a second later, in the background.
   */
  async provide(provided: ProvidedTokens, generation: number): Promise<void> {
    const { held, refused } = this.#deps;
    let tokens: SessionTokens;
    try {
      tokens = await provided.tokens();
    } catch (error) {
      if (!held.tokens || !held.stillValid()) throw error;
      return held.postpone(1_000);
    }
    // Once per token: the token a 401 just refused is not taken again.
    if (refused.isRefused(tokens.accessToken))
      throw new SessionError("The session provider returned the access token the server has just refused (HTTP 401)", {
        expected: "a session",
      });
    this.#deps.received(tokens, "refresh", generation);
  }

  async signIn(generation: number): Promise<void> {
    const { budget, refused, exchange } = this.#deps;
    const credentials = this.#deps.credentials();
    if (!credentials)
      throw new SessionError(`No session and no credentials: ${sessionRemedy()}`, {
        expected: "a session",
      });
    if (budget.refused) throw refused.refusal();
    const cooling = budget.coolingDown();
    if (cooling) throw cooling;
    const answer = await this.#settle(await exchange.signIn(credentials.username, credentials.password));
    if (answer.kind === "refused") throw budget.refuse(answer.error);
    if (answer.kind !== "tokens") throw this.#failed(answer);
    this.#deps.received(answer.tokens, "sign-in", generation);
  }

  /**
   * An answer whose AccessToken was expired on arrival (in the server's time, Section 5.2) is
   * refreshed once, before any call uses it, with the refresh token the same answer carried. When
   * that fails too (expired again, refused, or nothing to refresh with), the answer ends as an
   * "expired" one: /auth is then left alone for a while, and the password is not sent again.
   */
  async #settle(answer: AuthAnswer): Promise<AuthAnswer> {
    if (answer.kind !== "expired" || !answer.tokens.refreshToken) return answer;
    const again = await this.#deps.exchange.refresh(answer.tokens.refreshToken);
    if (again.kind === "tokens") {
      const { tokens } = again; // an IdToken the response omits stays the one the first answer had
      return {
        kind: "tokens",
        tokens: { ...tokens, idToken: tokens.idToken ?? answer.tokens.idToken } as SessionTokens,
      };
    }
    return again.kind === "failed" ? again : { kind: "expired", tokens: answer.tokens, error: again.error };
  }

  /** Calls keep the current token until it expires, or until the cool-down ends, whichever is first. */
  #postpone(): void {
    this.#deps.held.postpone(this.#deps.budget.coolDownLeftMs());
  }

  /**
   * Calls keep the current token while it is valid (the refresh is put off); else `error` is
   * thrown, remembered as the refusal when `refusal`.
   */
  #keepOrThrow(error: AudienceError, refusal = false): void {
    if (!this.#deps.held.stillValid()) throw refusal ? this.#deps.budget.refuse(error) : error;
    this.#postpone();
  }

  /**
   * A failed sign-in or refresh: a transient failure starts the cool-down; an AccessToken that is
   * not header text is remembered as a refusal and thrown at once; tokens expired on arrival even
   * after their refresh start a long cool-down (the next sign-in would likely bring the same).
   * Returns the error to keep or throw.
   */
  #failed(answer: Extract<AuthAnswer, { kind: "failed" | "unusable" | "expired" }>): AudienceError {
    const { budget } = this.#deps;
    if (answer.kind === "unusable") throw budget.refuse(answer.error);
    if (answer.kind === "failed") budget.failed(answer.error);
    else budget.failed(answer.error, true, CLIENT_DEFAULTS.expiredOnArrivalCoolDownMs);
    return answer.error;
  }
}
