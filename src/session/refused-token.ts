/**
 * The access token a 401 refused, once nothing can renew it (Section 5): one cause, one class. A
 * call that was sent and answered 401 ends as that answer (retry-policy.ts), saying why nothing
 * could renew the token; a call never sent because of the same refusal fails with the same class,
 * an `AuthenticationError` in its "Not sent" form, carrying the 401's status and request id (never
 * the refresh's or the sign-in's), whatever the timing of the refresh that failed.
 */
import type { AudienceError } from "../errors/audience-error.ts";
import { NOTHING_TO_RENEW, notSentAfter401 } from "../errors/session-refusals.ts";
import type { Redactor } from "../internal/redact.ts";
import { failureReason } from "./auth-exchange.ts";
import type { FailureBudget } from "./failure-budget.ts";
import type { HeldTokens } from "./held-tokens.ts";

export interface RefusedTokenDeps {
  readonly redactor: Redactor;
  readonly held: HeldTokens;
  readonly budget: FailureBudget;
  /** The session's partner, once known. */
  readonly partnerId: () => string | undefined;
}

export class RefusedToken {
  readonly #deps: RefusedTokenDeps;
  /** The token the first 401 refused, and that 401's request id (redacted). */
  #token: string | undefined;
  #requestId: string | undefined;

  constructor(deps: RefusedTokenDeps) {
    this.#deps = deps;
  }

  /** A 401 answered `token`; the first 401 for a token is the one quoted. */
  refused(token: string, requestId: string | null): void {
    this.#deps.held.refuse(token); // whatever its `exp` says, no longer valid
    if (this.#token === token) return;
    this.#token = token;
    this.#requestId = requestId === null ? undefined : this.#deps.redactor.text(requestId);
  }

  /** Whether a 401 refused `token`. */
  isRefused(token: string): boolean {
    return this.#token === token;
  }

  /** Whether the held access token was refused by a 401 (an HTTP answer), not merely expired. */
  byServer(): boolean {
    const token = this.#deps.held.tokens?.accessToken;
    return token !== undefined && this.#deps.held.isRefused(token);
  }

  /** Why nothing can renew the token: the renewal's failure, the remembered refusal, else nothing to renew it with. */
  reason(failure?: AudienceError): string {
    const error = this.#deps.budget.refusalError ?? failure;
    return error ? failureReason(error) : NOTHING_TO_RENEW;
  }

  /**
   * What a call not sent because of a remembered refusal fails with: the "Not sent" form of the
   * 401 that refused the held token, when one did; else the refusal itself.
   */
  refusal(): AudienceError {
    return this.byServer() ? this.notSent() : this.#deps.budget.refusal();
  }

  /** The "Not sent" form of the 401 that refused the held token. */
  notSent(): AudienceError {
    return notSentAfter401(this.reason(), { requestId: this.#requestId, partnerId: this.#deps.partnerId() });
  }

  /** A renewal a call waited for failed: the call was not sent, and says so in the refusal's form. */
  waited(error: unknown): unknown {
    return this.#deps.budget.refused && this.byServer() ? this.notSent() : error;
  }

  /** A new session or new credentials. */
  reset(): void {
    this.#token = undefined;
    this.#requestId = undefined;
  }
}
