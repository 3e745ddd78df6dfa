/**
 * What the transport receives. While no middleware is registered, the client's typed methods hand
 * openapi-fetch `OutgoingRequest` as its `Request` class (send-attempt.ts says when and why): a
 * plain record of the call (no stream, no signal plumbing), which the policies can send again as
 * often as a retry needs. A real Request (a sign-in, a user's middleware, a write check) is read
 * into the same shape. What the client knows about the call itself (its operation, deadline, lane,
 * own `fetch`) travels beside it, as the call's value (call/call.ts), never inside the request.
 */

/** The init fields the transport sets itself on every attempt. */
const OWN = new Set(["method", "headers", "body", "signal", "redirect", "window"]);

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
  /**
   * The class of a Request read into this record (toOutgoing), when it is not the runtime's: a
   * Request of the caller's own class goes on to `fetch` in that class.
   */
  readonly requestClass: typeof Request | undefined;
  /** The Fetch standard's `priority`: "low" puts the call in the partner's background lane. */
  readonly priority: RequestPriority | undefined;
  /** The init fields passed on to `fetch` as given (passThroughOf). */
  readonly passThrough: Record<string, unknown> | undefined;

  constructor(input: string | URL, init: RequestInit = {}, requestClass?: typeof Request) {
    this.url = String(input);
    this.method = (init.method ?? "GET").toUpperCase();
    this.headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
    this.body = init.body ?? null;
    this.signal = init.signal ?? undefined;
    this.requestClass = requestClass;
    this.priority = init.priority;
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
    const body = await new Response(input.body).arrayBuffer();
    return new OutgoingRequest(input.url, { ...describe(input), body }, input.requestClass);
  }
  const body = input.body ? await input.arrayBuffer() : null;
  // A Request of the caller's own class (openapi-fetch built it for a middleware, or a middleware
  // returned it) goes on to `fetch` in that class.
  const own = input.constructor === Request ? undefined : (input.constructor as typeof Request);
  return new OutgoingRequest(input.url, { ...describe(input), headers: new Headers(input.headers), body }, own);
}

function describe(input: Request | OutgoingRequest): RequestInit {
  // openapi-fetch copies init fields a Request lacks (`priority` in Node) onto the Request itself.
  const { priority } = input as { priority?: RequestPriority };
  return {
    ...(input instanceof OutgoingRequest ? input.passThrough : requestPassThrough(input)),
    method: input.method,
    headers: input.headers,
    signal: input.signal ?? null,
    ...(priority ? { priority } : {}),
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
