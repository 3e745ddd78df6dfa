/**
 * The one factory for calls that ended without a usable HTTP response: a `NetworkError`, or a
 * `TimeoutError` for an attempt timeout or the call's deadline, or a `ValidationError` when the
 * runtime refused to build the request from the call's init. The underlying error is kept as
 * `cause` (the standard `Error.cause`), as a redacted copy: its message and every cause below it
 * pass through the client's redactor, so a transport that puts a token in an error message
 * cannot leak it.
 */
import type { CallRecord } from "../internal/call-record.ts";
import type { Redactor } from "../internal/redact.ts";
import type { AudienceError } from "./audience-error.ts";
import { NetworkError, ResponseTooLargeError, TimeoutError } from "./network-error.ts";
import { ValidationError } from "./validation-error.ts";

const MAX_CAUSE_DEPTH = 4;

export interface FailureDescription {
  readonly kind: "network" | "timeout" | "too-large" | "refused";
  /** What went wrong, in the client's words (no secret: built from codes and counts). */
  readonly message: string;
  /** The underlying error, if any. */
  readonly cause?: unknown;
}

export function errorFromFailure(failure: FailureDescription, record: CallRecord, redactor: Redactor): AudienceError {
  const note = record.mayHaveSucceeded
    ? "; the write may have happened: check before repeating it (Section 3 rule 3)"
    : "";
  const tail = record.requestId ? ` [request id ${record.requestId}]` : "";
  const message = redactor.text(
    `${record.method} ${record.path}: ${failure.message} after ${record.attempts} attempt(s)${note}${tail}`,
  );
  const context = {
    ...record,
    expected: "a response",
    cause: failure.cause === undefined ? undefined : redactedCopy(failure.cause, redactor, 0),
  };
  // The runtime's message names the field, and its value, which may be the caller's: it is the
  // (redacted) cause, and the issue names only the init.
  if (failure.kind === "refused")
    return new ValidationError([{ field: "init", message: `${failure.message} (see cause); nothing was sent` }], {
      ...context,
      expected: "an init fetch accepts",
    });
  if (failure.kind === "timeout") return new TimeoutError(message, context);
  if (failure.kind === "too-large") return new ResponseTooLargeError(message, context);
  return new NetworkError(message, context);
}

/** A plain Error that says what `error` said, every string redacted, its causes likewise. */
function redactedCopy(error: unknown, redactor: Redactor, depth: number): unknown {
  if (!(error instanceof Error) && (typeof error !== "object" || error === null))
    return typeof error === "string" ? redactor.text(error) : error;
  const source = error as { name?: unknown; message?: unknown; code?: unknown; cause?: unknown };
  const cause =
    source.cause !== undefined && depth + 1 < MAX_CAUSE_DEPTH
      ? redactedCopy(source.cause, redactor, depth + 1)
      : undefined;
  const copy = new Error(redactor.text(String(source.message ?? "")), cause === undefined ? undefined : { cause });
  copy.name = typeof source.name === "string" ? redactor.text(source.name) : "Error";
  if (typeof source.code === "string" || typeof source.code === "number")
    Object.assign(copy, { code: typeof source.code === "string" ? redactor.text(source.code) : source.code });
  // The copy's stack names this module, not the original's frames (which may quote the secret).
  copy.stack = `${copy.name}: ${copy.message}`;
  return copy;
}
