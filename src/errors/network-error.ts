import { AudienceError } from "./audience-error.ts";
import type { NetworkErrorName } from "./error-names.ts";

/**
 * No usable HTTP response: the connection failed or was reset, a redirect could not be followed
 * (or was refused: credentials never follow one off their origin), or the body could not be read.
 * `cause` holds the underlying error, redacted.
 */
export class NetworkError extends AudienceError {
  /** The class name as a literal (a subclass's own, when it is one). */
  override readonly name: NetworkErrorName = "NetworkError";
}

/** An attempt took longer than `timeoutMs`, or the call's deadline (`retry.deadlineMs`) passed. */
export class TimeoutError extends NetworkError {
  override readonly name = "TimeoutError";
}

/** The response body was larger than `maxResponseBytes` (after decompression); not retried. */
export class ResponseTooLargeError extends NetworkError {
  override readonly name = "ResponseTooLargeError";
}
