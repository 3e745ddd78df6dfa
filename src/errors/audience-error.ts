import { API_VERSION } from "../../generated/version.ts";
import { terminalSafe } from "../internal/terminal-text.ts";
import type { AnyAudienceError } from "./any-audience-error.ts";
import type { AudienceErrorName } from "./error-names.ts";

const BRAND = Symbol.for("@audience-intelligence/client/error");

/**
 * The request as it may be shown to support: secrets already replaced by `[REDACTED]`. Not a root
 * export: name it `NonNullable<AudienceError["request"]>` (or `ErrorContext["request"]`).
 */
export interface RedactedRequest {
  /** HTTP method, upper case. */
  readonly method: string;
  /** Full URL with secret query parameters redacted. */
  readonly url: string;
  /** Request headers; `Authorization` and other secrets read `[REDACTED]`. */
  readonly headers: Readonly<Record<string, string>>;
}

/** What an error knows about the call it came from. Every string is already redacted. */
export interface ErrorContext {
  /** The `x-request-id` the API answered with, if any (Section 7). */
  readonly requestId?: string | undefined;
  /** HTTP method of the call. */
  readonly method?: string | undefined;
  /** Path of the call, as in the description (e.g. `/events/{eid}` filled in). */
  readonly path?: string | undefined;
  /** The `X-Preferred-Partner-Id` the call was sent with. */
  readonly partnerId?: string | undefined;
  /** Where the call went: the API origin and base path (Section 7 "environment"). */
  readonly environment?: string | undefined;
  /** The request as sent, secrets redacted. */
  readonly request?: RedactedRequest | undefined;
  /** What the caller expected, for the support report ("a 2xx response"). */
  readonly expected?: string | undefined;
  /** How many attempts were made (retries included). */
  readonly attempts?: number | undefined;
  /** A non-idempotent write failed in a way that leaves its outcome unknown (Section 3 rule 3). */
  readonly mayHaveSucceeded?: boolean | undefined;
  /** The underlying error (a network failure, an abort), kept as the standard `Error.cause`. */
  readonly cause?: unknown;
  /**
   * When the call gave up because its next wait (a backoff, a Retry-After, the pace) would end
   * after its deadline: the epoch ms at which it would have tried again.
   */
  readonly retryAt?: number | undefined;
}

/**
 * Base of every error the client throws. Carries the request id and what support needs, never a
 * secret: messages, `toJSON()` and `supportReport()` are built from redacted values only.
 */
export class AudienceError extends Error {
  /**
   * The class name as a literal, stable across bundlers and minifiers: `switch (error.name)` after
   * {@link isAudienceError} narrows to the class.
   */
  override readonly name: AudienceErrorName = "AudienceError";
  /** The `x-request-id` the API answered with; quote it to support (Section 7). Control and bidi characters read `\uXXXX`. */
  readonly requestId: string | undefined;
  /** HTTP method of the failed call. */
  readonly method: string | undefined;
  /** Path of the failed call. */
  readonly path: string | undefined;
  /** Partner id the call was sent for. */
  readonly partnerId: string | undefined;
  /** API origin and base path the call went to (Section 7 "environment"). */
  readonly environment: string | undefined;
  /** The request as sent, secrets redacted. */
  readonly request: RedactedRequest | undefined;
  /** What the caller expected ("a 2xx response"), for the support report. */
  readonly expected: string | undefined;
  /** Attempts made, retries included. */
  readonly attempts: number | undefined;
  /** True when a non-idempotent write failed with its outcome unknown: check before repeating it (Section 3 rule 3). */
  readonly mayHaveSucceeded: boolean;
  /** UTC time the error was raised, ISO 8601. */
  readonly timestamp: string;
  /**
   * Set when the call (or the helper) gave up at once because its next wait would have ended after
   * its `deadlineMs`: the epoch ms at which it would have tried again. Undefined otherwise.
   */
  readonly retryAt: number | undefined;

  constructor(message: string, context: ErrorContext = {}) {
    // Messages embed what servers send (request ids, content types, partner ids): no control or
    // bidi character of theirs reaches a terminal or log raw (terminalSafe).
    super(terminalSafe(message), context.cause === undefined ? undefined : { cause: context.cause });
    this.requestId = context.requestId === undefined ? undefined : terminalSafe(context.requestId);
    this.method = context.method;
    this.path = context.path;
    this.partnerId = context.partnerId;
    this.environment = context.environment;
    this.request = context.request;
    this.expected = context.expected;
    this.attempts = context.attempts;
    this.mayHaveSucceeded = context.mayHaveSucceeded ?? false;
    this.retryAt = context.retryAt;
    this.timestamp = new Date().toISOString();
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** Lines a subclass adds to the support report (a RateLimitError's rate state). */
  protected extraLines(): string[] {
    return [];
  }

  /** One line for "actual" in the support report. */
  protected actual(): string {
    return `${this.name}: ${this.message}`;
  }

  /**
   * The support report of Section 7: request id, method and path, UTC timestamp, expected versus
   * actual, environment, partner id and the redacted request. Safe to paste into a ticket, and to
   * print: control and bidi characters are shown as `\uXXXX`.
   */
  supportReport(): string {
    const lines = [
      "Audience Intelligence API — support report",
      `request id:   ${this.requestId ?? "(none received)"}`,
      `method, path: ${this.method ?? "?"} ${this.path ?? "?"}`,
      `timestamp:    ${this.timestamp} (UTC)`,
      `expected:     ${this.expected ?? "a successful response"}`,
      `actual:       ${this.actual()}`,
      `environment:  ${this.environment ?? "?"} (API description ${API_VERSION})`,
      // A client's error always has its environment; its partner may not be chosen yet (no sign-in).
      `partner id:   ${this.partnerId ?? (this.environment === undefined ? "(none)" : "(not known yet)")}`,
    ];
    if (this.attempts !== undefined) lines.push(`attempts:     ${this.attempts}`);
    if (this.retryAt !== undefined)
      lines.push(`retry at:     ${new Date(this.retryAt).toISOString()} (past the deadline: not waited for)`);
    lines.push(...this.extraLines());
    if (this.request) {
      lines.push(`request:      ${this.request.method} ${this.request.url}`);
      for (const [k, v] of Object.entries(this.request.headers)) lines.push(`  ${k}: ${v}`);
    }
    return lines.map(terminalSafe).join("\n");
  }

  /** A plain, redacted object for structured logs (`JSON.stringify(error)`); no stack. */
  toJSON(): Record<string, unknown> {
    const { stack: _stack, ...own } = { ...this } as Record<string, unknown>;
    return { name: this.name, message: this.message, ...own };
  }
}

/**
 * True for any error of this client, across realms and duplicate package copies; narrows to the
 * union of the concrete classes, so `error.name` tells which one it is.
 *
 * @example
 * if (isAudienceError(error)) {
 *   switch (error.name) {
 *     case "RateLimitError": return wait(error.retryAfterMs);
 *     case "ValidationError": return show(error.issues);
 *   }
 * }
 */
export function isAudienceError(value: unknown): value is AnyAudienceError {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

/**
 * What `error` was built with, as the context of another error about the same call, with `error`
 * as its cause: the one way an error's context is carried into a more specific one.
 */
export function contextOf(error: AudienceError): ErrorContext {
  const { requestId, method, path, partnerId, environment, request, expected, attempts, mayHaveSucceeded, retryAt } =
    error;
  return {
    requestId,
    method,
    path,
    partnerId,
    environment,
    request,
    expected,
    attempts,
    mayHaveSucceeded,
    retryAt,
    cause: error,
  };
}
