/**
 * What the transport receives. While no middleware is registered, the client's typed methods hand
 * openapi-fetch `OutgoingRequest` as its `Request` class (send-attempt.ts says when and why): a
 * plain record of the call (no stream, no signal plumbing), which the policies can send again as
 * often as a retry needs, and which names the operation the call is for, so nothing has to be
 * parsed back out of the URL. A real Request (a sign-in, a user's middleware, a write check) is
 * read into the same shape.
 */
import type { OperationInfo } from "../../generated/operations.ts";
import type { Turn } from "../coordination/coordinator.ts";

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
  /** A user's middleware sees the response: the transport leaves its body readable. */
  keepBody?: boolean;
  /** Set by the transport: the response whose JSON body it parsed into `data`. */
  parsedFrom?: Response;
  data?: unknown;
  /**
   * The partner's turn the call took before openapi-fetch built anything (create-client.ts, the
   * admission step): the limiter step uses it for the first attempt of that partner, and clears it.
   */
  admitted?: AdmittedTurn | undefined;
}

/** A turn taken at admission, for the partner it was taken for. */
export interface AdmittedTurn {
  readonly partnerId: string;
  readonly turn: Turn;
}

/** The request init openapi-fetch passes through, plus the call's description. */
export interface OutgoingInit extends RequestInit {
  audienceCall?: CallInfo | undefined;
  /**
   * False when the caller asked openapi-fetch for a body other than JSON (`parseAs` text, blob,
   * arrayBuffer, stream): a 2xx that is not JSON is then the answer, not a broken reply.
   */
  audienceExpectJson?: boolean | undefined;
  /**
   * The monotonic ms (internal/clock.ts) by which the call must end: set by helpers with a
   * `deadlineMs` spanning several calls. The client's `retry.deadlineMs` still applies.
   */
  audienceDeadlineAt?: number | undefined;
  /** A call's own `fetch` (openapi-fetch's per-request option): the attempts end in it. */
  audienceFetch?: ((request: Request) => Promise<Response>) | undefined;
  /** A call's own `Request` class (openapi-fetch's per-request option): the class of the Requests `fetch` gets. */
  audienceRequest?: typeof Request | undefined;
}

/** The init fields the transport sets itself on every attempt, and the client's own. */
const OWN = new Set([
  "method",
  "headers",
  "body",
  "signal",
  "redirect",
  "window",
  "audienceCall",
  "audienceExpectJson",
  "audienceDeadlineAt",
  "transportRetries",
  "audienceFetch",
  "audienceRequest",
]);

/**
 * What the caller gave a call that the transport passes on to `fetch` unchanged: the Fetch standard's `credentials`, `cache`, `keepalive`, `mode`, `referrer`,
 * `referrerPolicy`, `integrity`, `priority`, and any other init property (Next.js reads `next`).
 * Undefined when there is none (the common case allocates nothing).
 */
function passThroughOf(init: object): Record<string, unknown> | undefined {
  let extra: Record<string, unknown> | undefined;
  for (const key of Object.keys(init)) {
    const value = (init as Record<string, unknown>)[key];
    if (OWN.has(key) || value === undefined) continue;
    extra ??= {};
    extra[key] = value;
  }
  return extra;
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
  readonly audienceFetch: ((request: Request) => Promise<Response>) | undefined;
  readonly audienceRequest: typeof Request | undefined;
  /** The Fetch standard's `priority`: "low" puts the call in the partner's background lane. */
  readonly priority: RequestPriority | undefined;
  /** The init fields passed on to `fetch` as given (passThroughOf). */
  readonly passThrough: Record<string, unknown> | undefined;

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
    this.audienceFetch = init.audienceFetch;
    this.audienceRequest = init.audienceRequest;
    this.passThrough = passThroughOf(init);
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
    audienceFetch: ownFetch,
    priority,
  } = input as {
    audienceCall?: CallInfo;
    audienceExpectJson?: boolean;
    audienceDeadlineAt?: number;
    audienceFetch?: (request: Request) => Promise<Response>;
    priority?: RequestPriority;
  };
  // A Request of the caller's own class (openapi-fetch built it for a middleware, or a middleware
  // returned it) goes on to `fetch` in that class.
  const requestClass = input instanceof OutgoingRequest ? input.audienceRequest : input.constructor;
  return {
    ...(input instanceof OutgoingRequest ? input.passThrough : requestPassThrough(input)),
    method: input.method,
    headers: input.headers,
    signal: input.signal ?? null,
    ...(priority ? { priority } : {}),
    audienceCall: call,
    audienceExpectJson: expectJson,
    audienceDeadlineAt: deadlineAt,
    audienceFetch: ownFetch,
    audienceRequest: requestClass === Request ? undefined : (requestClass as typeof Request),
  };
}

/** Defaults of a Request's init fields: only the ones a caller changed are passed on. */
const REQUEST_DEFAULTS: Readonly<Record<string, unknown>> = {
  credentials: "same-origin",
  cache: "default",
  keepalive: false,
  mode: "cors",
  referrerPolicy: "",
  integrity: "",
};

/** What a real Request (a user's middleware made it) carries for `fetch`: changed fields and copied init properties. */
function requestPassThrough(request: Request): Record<string, unknown> | undefined {
  let extra = passThroughOf(request); // own properties: openapi-fetch copies init fields a Request lacks
  for (const [key, fallback] of Object.entries(REQUEST_DEFAULTS)) {
    const value = (request as unknown as Record<string, unknown>)[key];
    if (value !== undefined && value !== fallback) {
      extra ??= {};
      extra[key] = value;
    }
  }
  return extra;
}
