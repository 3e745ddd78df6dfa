/**
 * The request path is a list of small policies, each `(request, context, next) => Response`,
 * composed once in create-transport.ts. openapi-fetch calls the composed function as its `fetch`.
 */
import type { CallRecord } from "../internal/call-record.ts";
import type { MatchedOperation } from "../internal/operation-matcher.ts";

/** State of one logical call, shared by the policies across its attempts. */
export interface CallContext {
  /** The caller's request, never sent itself: every attempt sends a fresh clone. */
  readonly original: Request;
  readonly url: URL;
  readonly method: string;
  readonly match: MatchedOperation | undefined;
  /** Whether the call carries the bearer token and the partner header. */
  readonly authenticated: boolean;
  /** The caller's AbortSignal. */
  readonly signal: AbortSignal;
  readonly startedAt: number;
  attempt: number;
  /** Token and partner stamped on the latest attempt. */
  tokenUsed: string | undefined;
  partnerId: string | undefined;
  retryAfterMs: number | undefined;
  mayHaveSucceeded: boolean;
  /** The record attached to the final response and to errors. */
  record(requestId?: string): CallRecord;
}

export type Next = (request: Request, context: CallContext) => Promise<Response>;
export type Policy = (request: Request, context: CallContext, next: Next) => Promise<Response>;

export function compose(policies: readonly Policy[], terminal: Next): Next {
  return policies.reduceRight<Next>((next, policy) => (request, context) => policy(request, context, next), terminal);
}
