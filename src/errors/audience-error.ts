import { API_VERSION } from "../../generated/operations.ts";

const BRAND = Symbol.for("@audience-intelligence/client/error");

/** The request as it may be shown to support: secrets already replaced by `[REDACTED]`. */
export interface RedactedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** What an error knows about the call it came from. Every string is already redacted. */
export interface ErrorContext {
  readonly requestId?: string | undefined;
  readonly method?: string | undefined;
  readonly path?: string | undefined;
  readonly partnerId?: string | undefined;
  /** Where the call went: the API origin and base path (Section 7 "environment"). */
  readonly environment?: string | undefined;
  readonly request?: RedactedRequest | undefined;
  /** What the caller expected, for the support report ("a 2xx response"). */
  readonly expected?: string | undefined;
  /** How many attempts were made (retries included). */
  readonly attempts?: number | undefined;
  /** A non-idempotent write failed in a way that leaves its outcome unknown (Section 3 rule 3). */
  readonly mayHaveSucceeded?: boolean | undefined;
  readonly cause?: unknown;
}

/**
 * Base of every error the client throws. Carries the request id and what support needs, never a
 * secret: messages, `toJSON()` and `supportReport()` are built from redacted values only.
 */
export class AudienceError extends Error {
  override name = "AudienceError";
  readonly requestId: string | undefined;
  readonly method: string | undefined;
  readonly path: string | undefined;
  readonly partnerId: string | undefined;
  readonly environment: string | undefined;
  readonly request: RedactedRequest | undefined;
  readonly expected: string | undefined;
  readonly attempts: number | undefined;
  readonly mayHaveSucceeded: boolean;
  /** UTC time the error was raised, ISO 8601. */
  readonly timestamp: string;

  constructor(message: string, context: ErrorContext = {}) {
    super(message, context.cause === undefined ? undefined : { cause: context.cause });
    this.requestId = context.requestId;
    this.method = context.method;
    this.path = context.path;
    this.partnerId = context.partnerId;
    this.environment = context.environment;
    this.request = context.request;
    this.expected = context.expected;
    this.attempts = context.attempts;
    this.mayHaveSucceeded = context.mayHaveSucceeded ?? false;
    this.timestamp = new Date().toISOString();
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** One line for "actual" in the support report. */
  protected actual(): string {
    return `${this.name}: ${this.message}`;
  }

  /**
   * The support report of Section 7: request id, method and path, UTC timestamp, expected versus
   * actual, environment, partner id and the redacted request. Safe to paste into a ticket.
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
      `partner id:   ${this.partnerId ?? "(none)"}`,
    ];
    if (this.attempts !== undefined) lines.push(`attempts:     ${this.attempts}`);
    if (this.request) {
      lines.push(`request:      ${this.request.method} ${this.request.url}`);
      for (const [k, v] of Object.entries(this.request.headers)) lines.push(`  ${k}: ${v}`);
    }
    return lines.join("\n");
  }

  toJSON(): Record<string, unknown> {
    const { stack: _stack, ...own } = { ...this } as Record<string, unknown>;
    return { name: this.name, message: this.message, ...own };
  }
}

/** True for any error of this client, across realms and duplicate package copies. */
export function isAudienceError(value: unknown): value is AudienceError {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}
