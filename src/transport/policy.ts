/**
 * The request path is a list of small policies, each `(attempt, context, next) => Response`,
 * composed once in create-transport.ts. openapi-fetch calls the composed function as its `fetch`.
 *
 * An attempt is a plain description (URL, method, headers, body, signal), not a Request: the
 * policies change it in place or pass a new one on, and only the terminal builds a Request, once
 * per attempt. Bodies are kept as given (a string, FormData, bytes), so an attempt can be sent
 * again without cloning anything.
 */
import type { OperationInfo } from "../../generated/operations.ts";
import type { Turn } from "../coordination/coordinator.ts";
import type { CallRecord } from "../internal/call-record.ts";
import type { RateState } from "../rate-state.ts";
import type { Lane } from "./limiter.ts";

/** One attempt as the policies see it. */
export interface Attempt {
  url: string;
  method: string;
  /** Shared by the attempts of a call: the credentials policy sets the current token on it. */
  headers: Headers;
  body: BodyInit | null;
  /** Set by the timeout policy: aborts on the caller's signal or the attempt's timeout. */
  signal: AbortSignal | undefined;
}

/** A turn taken at admission (call/admit.ts), for the partner it was taken for. */
export interface AdmittedTurn {
  readonly partnerId: string;
  readonly turn: Turn;
}

/** State of one logical call, shared by the policies across its attempts. */
export interface CallContext {
  /** The call as openapi-fetch (or the session) described it; every attempt starts from it. */
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: BodyInit | null;
  /** The operation's row of the description, when the call is one of its operations. */
  readonly op: OperationInfo | undefined;
  /** Whether a 2xx body is parsed as JSON by the terminal (a described operation read as JSON). */
  readonly parseJson: boolean;
  /** A user's middleware sees the response: the terminal leaves its body readable. */
  readonly keepBody: boolean;
  /** False for a poll's fetch: its own schedule retries it (Section 8.5, workflows/poll-call.ts). */
  readonly transportRetries: boolean;
  /**
   * The partner's turn the call took before openapi-fetch built anything (call/admit.ts): the
   * limiter step takes it for the first attempt of that partner; the transport gives it back
   * unused if no attempt took it.
   */
  admitted: AdmittedTurn | undefined;
  /** Whether the call carries the bearer token and the partner header. */
  readonly authenticated: boolean;
  /** Whether the body carries a secret (sign-in, refresh): such a request never follows a redirect. */
  readonly secretBody: boolean;
  /** Whether a 2xx must be JSON: false when the caller asked for another `parseAs`. */
  readonly expectJson: boolean;
  /** The call's own `fetch`, when it gave one: its attempts end there instead of the client's. */
  readonly fetch: ((request: Request) => Promise<Response>) | undefined;
  /** The call's own `Request` class, when it gave one: the class of the Requests its `fetch` gets. */
  readonly requestClass: typeof Request | undefined;
  /** The caller's init fields for `fetch` (credentials, cache, keepalive, `next`, …), passed on as given. */
  readonly passThrough: Record<string, unknown> | undefined;
  /** The partner's queue the call waits in: "background" for `priority: "low"`. */
  readonly lane: Lane;
  /** Aborts on the caller's signal or at the call's deadline (internal/call-signal.ts), if either is set. */
  readonly signal: AbortSignal | undefined;
  readonly startedAt: number;
  /** Monotonic ms by which the call must end (the client's `retry.deadlineMs`, a helper's `deadlineMs`), if any. */
  readonly deadlineAt: number | undefined;
  /** Set when the call gave up because its next wait would end past `deadlineAt`: epoch ms of that retry. */
  retryAt?: number | undefined;
  /** Path template when the operation is known (`/events/{eid}`), else the redacted URL path. */
  readonly path: string;
  attempt: number;
  /** Token and partner stamped on the latest attempt. */
  tokenUsed: string | undefined;
  partnerId: string | undefined;
  retryAfterMs: number | undefined;
  mayHaveSucceeded: boolean;
  /** Set by the retry policy on a 401 that nothing could renew: why nothing could. */
  unrenewable?: string | undefined;
  /** What a write check found when it could not prove the write (write-checks.ts). */
  writeCheckNote?: string | undefined;
  /** Set by the retry policy before it waits: the wait before the next attempt, in ms. */
  retryWaitMs?: number | undefined;
  /** Set by the limiter policy when an attempt waited for a slot, or for the pace (ms); read by the metrics. */
  slotWaitMs?: number | undefined;
  paceWaitMs?: number | undefined;
  /** Set by the trace policy when tracing is on: the context of the call's span (its attempts' parent). */
  traceContext?: object | undefined;
  /** The partner's rate state when the call ended on a 429 (for its RateLimitError). */
  rateState?: RateState | undefined;
  /** The record attached to the final response and to errors. */
  record(requestId?: string): CallRecord;
}

/**
 * What an attempt comes back with: its response and, when the terminal parsed a 2xx body as JSON,
 * that body, by value (with `parseJson` the response's own body is then consumed; a request of
 * no call, the session's, keeps it readable too).
 */
export interface Reply {
  readonly response: Response;
  readonly parsed?: { readonly data: unknown } | undefined;
  /** The response's Retry-After in ms, for a retryable status: read once, by limiter-policy.ts. */
  readonly retryAfterMs?: number | undefined;
}

export type Next = (attempt: Attempt, context: CallContext) => Promise<Reply>;
export type Policy = (attempt: Attempt, context: CallContext, next: Next) => Promise<Reply>;

export function compose(policies: readonly Policy[], terminal: Next): Next {
  return policies.reduceRight<Next>((next, policy) => (attempt, context) => policy(attempt, context, next), terminal);
}

/** A fresh attempt of the call, as the caller described it. */
export function firstAttempt(ctx: CallContext): Attempt {
  return { url: ctx.url, method: ctx.method, headers: ctx.headers, body: ctx.body, signal: undefined };
}
