/**
 * What the transport receives. The client's typed methods hand openapi-fetch `OutgoingRequest` as
 * its `Request` class: a plain record of the call (no stream, no signal plumbing), which the
 * policies can send again as often as a retry needs, and which names the operation the call is
 * for, so nothing has to be parsed back out of the URL. A real Request (a sign-in, a user's
 * middleware, a write check) is read into the same shape.
 */
import type { OperationInfo } from "../../generated/operations.ts";

/** What the client's typed methods tell the transport about one call. */
export interface CallInfo {
  readonly op: OperationInfo;
  /** Whether the caller wants a 2xx body parsed as JSON (openapi-fetch's default `parseAs`). */
  readonly parseJson: boolean;
  /**
   * False for a poll's fetch: no transport retries, the poll's own schedule retries
   * (Section 8.5: status polls at 3 s or longer; workflows/poll-call.ts).
   */
  readonly transportRetries?: false;
  /** Set by the transport: the response whose JSON body it parsed into `data`. */
  parsedFrom?: Response;
  data?: unknown;
}

/** The request init openapi-fetch passes through, plus the call's description. */
export interface OutgoingInit extends RequestInit {
  audienceCall?: CallInfo;
  /**
   * False when the caller asked openapi-fetch for a body other than JSON (`parseAs` text, blob,
   * arrayBuffer, stream): a 2xx that is not JSON is then the answer, not a broken reply.
   */
  audienceExpectJson?: boolean;
  /**
   * The monotonic ms (internal/clock.ts) by which the call must end: set by helpers with a
   * `deadlineMs` spanning several calls (issue 19). The client's `retry.deadlineMs` still applies.
   */
  audienceDeadlineAt?: number;
}

/** A call as a plain description; used as openapi-fetch's `Request` class. */
export class OutgoingRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: BodyInit | null;
  readonly signal: AbortSignal | undefined;
  readonly audienceCall: CallInfo | undefined;
  readonly audienceExpectJson: boolean;
  readonly audienceDeadlineAt: number | undefined;
  /** The Fetch standard's `priority`: "low" puts the call in the partner's background lane (issue 19). */
  readonly priority: RequestPriority | undefined;

  constructor(input: string | URL, init: OutgoingInit = {}) {
    this.url = String(input);
    this.method = (init.method ?? "GET").toUpperCase();
    this.headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
    this.body = init.body ?? null;
    this.signal = init.signal ?? undefined;
    this.audienceCall = init.audienceCall;
    this.audienceExpectJson = init.audienceExpectJson ?? init.audienceCall?.parseJson ?? true;
    this.priority = init.priority;
    this.audienceDeadlineAt = init.audienceDeadlineAt;
  }
}

/**
 * The transport's view of any input: an OutgoingRequest as is, a Request read into one. A body
 * that is a stream is read into bytes once, so that every attempt can send it.
 */
export async function toOutgoing(input: Request | OutgoingRequest): Promise<OutgoingRequest> {
  if (input instanceof OutgoingRequest) {
    if (!(input.body instanceof ReadableStream)) return input;
    return new OutgoingRequest(input.url, { ...describe(input), body: await new Response(input.body).arrayBuffer() });
  }
  const body = input.body ? await input.arrayBuffer() : null;
  return new OutgoingRequest(input.url, { ...describe(input), headers: new Headers(input.headers), body });
}

function describe(input: Request | OutgoingRequest): OutgoingInit {
  // openapi-fetch copies init fields a Request lacks (`priority` in Node) onto the Request itself.
  const {
    audienceCall: call,
    audienceExpectJson: expectJson,
    audienceDeadlineAt: deadlineAt,
    priority,
  } = input as {
    audienceCall?: CallInfo;
    audienceExpectJson?: boolean;
    audienceDeadlineAt?: number;
    priority?: RequestPriority;
  };
  return {
    method: input.method,
    headers: input.headers,
    signal: input.signal ?? null,
    ...(call ? { audienceCall: call } : {}),
    ...(expectJson === false ? { audienceExpectJson: false } : {}),
    ...(priority ? { priority } : {}),
    ...(deadlineAt === undefined ? {} : { audienceDeadlineAt: deadlineAt }),
  };
}
