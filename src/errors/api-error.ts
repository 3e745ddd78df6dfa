import type { RateState } from "../rate-state.ts";
import { AudienceError, type ErrorContext } from "./audience-error.ts";
import type { ApiErrorName } from "./error-names.ts";

/** What the API answered, already redacted. */
export interface ApiErrorDetails extends ErrorContext {
  /** HTTP status of the response. */
  readonly status: number;
  /** Error code parsed from the body, such as `error.auth.not_authorized` (body shape not shown, Section 7). */
  readonly code?: string | undefined;
  /** Parsed response body (JSON when it parses, else text). */
  readonly body?: unknown;
  /** Response headers, secrets redacted. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/** The API answered with an error status. */
export class ApiError extends AudienceError {
  /** The class name as a literal, stable across bundlers and minifiers (a subclass's own, when it is one). */
  override readonly name: ApiErrorName = "ApiError";
  /** HTTP status of the response. */
  readonly status: number;
  /** Error code parsed from the body, such as `error.auth.not_authorized`, when there is one. */
  readonly code: string | undefined;
  /** Parsed response body (JSON when it parses, else text). */
  readonly body: unknown;
  /** Response headers, secrets redacted. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(message: string, details: ApiErrorDetails) {
    super(message, details);
    this.status = details.status;
    this.code = details.code;
    this.body = details.body;
    this.headers = details.headers ?? {};
  }

  protected override actual(): string {
    return `HTTP ${this.status}${this.code ? ` ${this.code}` : ""} — ${this.message}`;
  }
}

/** 401, or a sign-in/refresh that failed (Section 5). */
export class AuthenticationError extends ApiError {
  override readonly name = "AuthenticationError";
}

/** 403: the token is valid but X-Preferred-Partner-Id is missing or wrong (Section 5.5, 7). */
export class PartnerAccessError extends ApiError {
  override readonly name = "PartnerAccessError";
}

/** 404 (for example GET /setup_processes/{eid} with no draft). */
export class NotFoundError extends ApiError {
  override readonly name = "NotFoundError";
}

/** 429 after the retries the specification allows, or a Retry-After longer than the ceiling. */
export class RateLimitError extends ApiError {
  override readonly name = "RateLimitError";
  /** The wait the server asked for, when it sent Retry-After. */
  readonly retryAfterMs: number | undefined;
  /** The partner's rate state when the call gave up (`client.rateState()` at that moment). */
  readonly rateState: RateState | undefined;

  constructor(
    message: string,
    details: ApiErrorDetails & { retryAfterMs?: number | undefined; rateState?: RateState | undefined },
  ) {
    super(message, details);
    this.retryAfterMs = details.retryAfterMs;
    this.rateState = details.rateState;
  }

  protected override extraLines(): string[] {
    const s = this.rateState;
    if (!s) return [];
    const pace = s.pace === null ? "not pacing" : `${s.pace}/s`;
    const until = s.coolDownUntil === null ? "none" : new Date(s.coolDownUntil).toISOString();
    return [
      `rate state:   ${s.inFlight} in flight of ${s.concurrencyLimit}, queued ${s.queued.interactive} + ${s.queued.background} background, pace ${pace}, cool-down until ${until}, clock skew ${s.clockSkewMs} ms`,
    ];
  }
}

/** 5xx after the retries the specification allows (Section 7: 500, 502, 503, 504). */
export class ServerError extends ApiError {
  override readonly name = "ServerError";
}

/**
 * 400: the API refused the request as malformed (a field's value, a missing field). `code` and
 * `body` say which, when the server said (error body shape not shown, Section 7).
 */
export class BadRequestError extends ApiError {
  override readonly name = "BadRequestError";
}

/** 409: the request conflicts with the resource's current state. */
export class ConflictError extends ApiError {
  override readonly name = "ConflictError";
}

/** 422: the request was well-formed but its content was refused. */
export class UnprocessableEntityError extends ApiError {
  override readonly name = "UnprocessableEntityError";
}
