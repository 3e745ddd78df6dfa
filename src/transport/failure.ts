/**
 * A failed attempt without a usable HTTP response, inside the transport. The retry policy decides
 * whether to try again and turns the last one into a public NetworkError or TimeoutError, or a
 * ValidationError for an init the runtime refused (errors/from-failure.ts).
 */
export type FailureKind =
  | "network"
  | "timeout"
  | "deadline"
  | "malformed"
  | "redirect"
  | "too-large"
  | "not-a-response"
  | "refused";

/**
 * Kinds another attempt cannot change: the call's deadline passed, a redirect the client refuses
 * or cannot follow (a loop would only repeat), a body past the size limit, a `fetch` of the
 * caller's that resolves to something that is not a Response (its bug), a request the runtime
 * refused to build from the call's init (the same init is refused again).
 */
const FINAL: ReadonlySet<FailureKind> = new Set(["deadline", "redirect", "too-large", "not-a-response", "refused"]);

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
