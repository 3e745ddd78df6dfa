/**
 * A failed attempt without a usable HTTP response, inside the transport. The retry policy decides
 * whether to try again and turns the last one into a public NetworkError or TimeoutError
 * (errors/from-failure.ts).
 */
import { networkFailureHint } from "../errors/browser-hints.ts";

export type FailureKind =
  | "network"
  | "timeout"
  | "deadline"
  | "malformed"
  | "redirect"
  | "too-large"
  | "not-a-response";

/**
 * Kinds another attempt cannot change: the call's deadline passed, a redirect the client refuses
 * or cannot follow (a loop would only repeat), a body past the size limit, a `fetch` of the
 * caller's that resolves to something that is not a Response (its bug).
 */
const FINAL: ReadonlySet<FailureKind> = new Set(["deadline", "redirect", "too-large", "not-a-response"]);

export class AttemptFailure extends Error {
  override name = "AttemptFailure";
  constructor(
    readonly kind: FailureKind,
    /** False when the request surely never reached the server (connection refused, DNS). */
    readonly sent: boolean,
    message: string,
    /** The x-request-id of a response that arrived but could not be used (bad JSON, reset mid-body). */
    readonly requestId?: string,
    /** The underlying error (kept, redacted, as the public error's `cause`). */
    readonly underlying?: unknown,
  ) {
    super(message);
  }

  /** Whether another attempt could go differently. */
  get retryable(): boolean {
    return !FINAL.has(this.kind);
  }

  /** The same failure, knowing the request id of the response it happened on. */
  withRequestId(requestId: string | undefined): AttemptFailure {
    if (!requestId || this.requestId) return this;
    return new AttemptFailure(this.kind, this.sent, this.message, requestId, this.underlying);
  }
}

// Connection-level failures that happen before a single byte of the request leaves.
const NOT_SENT = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);

export function describeNetworkError(error: unknown, requestId?: string): AttemptFailure {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } })?.cause;
  const code = typeof cause?.code === "string" ? cause.code : undefined;
  const reason = code ?? (error instanceof Error ? error.message : "network error");
  const hint = code ? "" : networkFailureHint();
  return new AttemptFailure(
    "network",
    !(code && NOT_SENT.has(code)),
    `network error: ${reason}${hint}`,
    requestId,
    error,
  );
}
