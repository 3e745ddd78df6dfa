/**
 * What the transport learned about one logical call (its outcome's `record`, by value), so that
 * the error factory and `unwrap` build errors and support reports without re-deriving anything.
 * A call's result carries it (carry-record.ts `withRecord`), with the redactor of the client that
 * made it. This module is loaded up front (by `unwrap`): it holds only the types and the key.
 */
import type { RedactedRequest } from "../errors/audience-error.ts";
import type { RateState } from "../rate-state.ts";

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
  /** A 401 that nothing could renew: why (no refresh token or credentials, or their refusal). */
  readonly unrenewable?: string | undefined;
  /** The epoch ms of the retry the call's deadline did not leave time for. */
  readonly retryAt?: number | undefined;
  /** The partner's rate state when the call ended on a 429. */
  readonly rateState?: RateState | undefined;
  /**
   * The answer refused a setup call because the setup is published (Section 3 rules 1–2), as the
   * setup guards judged it from the answer and what the client had seen (workflows/setup-guards.ts).
   */
  readonly setupRefused?: { readonly eid: string } | undefined;
}

/** A raw result, as openapi-fetch resolves it. */
export type CallResult = { data?: unknown; error?: unknown; response: Response };

/** Where a result of the client carries what `unwrap` needs (carry-record.ts puts it there). */
export const CARRIED = Symbol();

/** What a result of the client carries: its error, built from its record by the engine's side. */
export interface Carried {
  /** The call's error for this answer (errors/from-answer.ts `errorFromAnswer`), redacted by the client. */
  readonly error: (response: Response, body: unknown) => Error;
}

/** What a result of the client carries; undefined for one made elsewhere. */
export const carriedBy = (result: object): Carried | undefined => (result as { [CARRIED]?: Carried })[CARRIED];
