/**
 * How the session spends `/auth*`, whose budget is the tightest (Section 8.5):
 *
 * - A refusal is remembered: later calls fail at once with the same typed error, saying why, until
 *   new credentials or a new session (`reset`).
 * - Transient failures (429, 5xx, a network error, after their own retries) start one cool-down —
 *   the server's Retry-After, else Section 8.3's wait — during which nothing is sent to /auth*,
 *   and later calls fail at once with that error instead of spending five more attempts each.
 */
import { RateLimitError, ServerError } from "../errors/api-error.ts";
import type { AudienceError } from "../errors/audience-error.ts";
import { NetworkError } from "../errors/network-error.ts";
import { repeated } from "../errors/repeated.ts";
import type { ClientConfig } from "../options.ts";
import { backoffDelayMs, rateLimitDelayMs } from "../transport/backoff.ts";

export interface BudgetDeps {
  readonly retry: ClientConfig["retry"];
  /** Monotonic clock. */
  readonly monotonic: () => number;
  readonly random: () => number;
  /** Told of each cool-down this process starts (the group's shared session waits as long). */
  readonly onCoolDown?: (ms: number) => void;
}

export class FailureBudget {
  readonly #deps: BudgetDeps;
  /** A refused credential: later calls fail at once with it until new credentials or a new session. */
  #refusal: AudienceError | undefined;
  /** A transient sign-in or refresh failure: until `until` (monotonic), nothing is sent to /auth*. */
  #coolDown: { until: number; error: AudienceError; failures: number } | undefined;

  constructor(deps: BudgetDeps) {
    this.#deps = deps;
  }

  /** Whether a refusal is remembered. */
  get refused(): boolean {
    return this.#refusal !== undefined;
  }

  /** The remembered refusal as it happened (not its "Not sent" form); undefined when none. */
  get refusalError(): AudienceError | undefined {
    return this.#refusal;
  }

  /** Remembers `error` as the refusal every later call fails with; returns it. */
  refuse(error: AudienceError): AudienceError {
    this.#refusal = error;
    return error;
  }

  /** The remembered refusal, as thrown by a call that sent nothing because of it. */
  refusal(): AudienceError {
    return repeated(
      this.#refusal as AudienceError,
      "Not sent: the API refused this client's credentials earlier; pass new ones with client.useCredentials() or client.useSession()",
    );
  }

  /** The error to fail with while a cool-down runs; undefined when /auth* may be asked. */
  coolingDown(): AudienceError | undefined {
    const coolDown = this.#coolDown;
    if (!coolDown || this.#deps.monotonic() >= coolDown.until) return undefined;
    const seconds = Math.ceil((coolDown.until - this.#deps.monotonic()) / 1000);
    return repeated(
      coolDown.error,
      `Not sent: the last sign-in or refresh failed, and /auth is not tried again for ${seconds} s (Section 8.5: its budget is the tightest)`,
    );
  }

  /** What is left of the cool-down (ms, possibly negative); infinite when there is none. */
  coolDownLeftMs(): number {
    return this.#coolDown ? this.#coolDown.until - this.#deps.monotonic() : Number.POSITIVE_INFINITY;
  }

  /**
   * A sign-in or refresh failed with `error`: a transient one starts the cool-down (Section 8.3: the
   * server's Retry-After, else 5–10 s after a 429, else exponential backoff); `always` starts it
   * whatever the error (the next sign-in would likely bring the same answer), for `minMs` at least.
   */
  failed(error: AudienceError, always = false, minMs = 0): void {
    const transient = error instanceof RateLimitError || error instanceof ServerError || error instanceof NetworkError;
    if (!always && !transient) return;
    const { retry, random, monotonic } = this.#deps;
    const failures = (this.#coolDown?.failures ?? 0) + 1;
    const wait = Math.max(
      minMs,
      error instanceof RateLimitError
        ? (error.retryAfterMs ?? rateLimitDelayMs(retry, random()))
        : backoffDelayMs(failures, retry, random()),
    );
    this.#coolDown = { until: monotonic() + wait, error, failures };
    this.#deps.onCoolDown?.(wait);
  }

  /** Another process of the group was turned away by /auth: wait `ms` too, unless already waiting longer. */
  groupCoolDown(ms: number): void {
    const until = this.#deps.monotonic() + ms;
    if (this.#coolDown && this.#coolDown.until >= until) return;
    const error = new RateLimitError(
      "Not sent: another process of the group met a 429 or 5xx on /auth; the group waits (Section 8.5)",
      { status: 429, retryAfterMs: ms },
    );
    this.#coolDown = { until, error, failures: this.#coolDown?.failures ?? 1 };
  }

  /** A sign-in or refresh succeeded (or the group's tokens were adopted): the cool-down ends. */
  succeeded(): void {
    this.#coolDown = undefined;
  }

  /** New credentials or a new session: forgets the refusal and the cool-down. */
  reset(): void {
    this.#refusal = undefined;
    this.#coolDown = undefined;
  }
}
