/**
 * What the transport learned about one logical call, attached to its final Response when that is an
 * error, so that the error factory (and `unwrap`) can build errors and support reports without
 * re-deriving anything.
 */
import type { RedactedRequest } from "../errors/audience-error.ts";
import type { RateState } from "../rate-state.ts";
import type { Redactor } from "./redact.ts";

export interface CallRecord {
  readonly method: string;
  /** Path template when the operation is known (`/events/{eid}`), else the redacted URL path. */
  readonly path: string;
  readonly environment: string;
  readonly partnerId: string | undefined;
  readonly request: RedactedRequest;
  readonly attempts: number;
  readonly retryAfterMs: number | undefined;
  readonly mayHaveSucceeded: boolean;
  /** What the check before repeating a write found, when it could not prove the write. */
  readonly writeCheckNote?: string | undefined;
  readonly requestId: string | undefined;
  /** A 401 that nothing could renew: the client was given only an access token. */
  readonly unrenewable?: boolean | undefined;
  /** The epoch ms of the retry the call's deadline did not leave time for. */
  readonly retryAt?: number | undefined;
  /** The partner's rate state when the call ended on a 429. */
  readonly rateState?: RateState | undefined;
}

const records = new WeakMap<Response, { record: CallRecord | (() => CallRecord); redactor: Redactor }>();

/** Attaches the record, or a function that builds it when first asked (most calls never are). */
export function attachRecord(response: Response, record: CallRecord | (() => CallRecord), redactor: Redactor): void {
  records.set(response, { record, redactor });
}

export function recordOf(response: Response): CallRecord | undefined {
  const entry = records.get(response);
  if (entry && typeof entry.record === "function") entry.record = entry.record();
  return entry?.record as CallRecord | undefined;
}

/** The redactor of the client that made the call (it knows that client's secrets). */
export function redactorOf(response: Response): Redactor | undefined {
  return records.get(response)?.redactor;
}
