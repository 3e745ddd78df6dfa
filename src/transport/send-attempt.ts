/**
 * How a call reaches `fetch`.
 *
 * The contract is openapi-fetch's: user code — a `fetch` (the client's option or a call's own)
 * or a middleware — gets real `Request`s, built with the caller's `Request` class (the call's
 * `Request`, else the client's `Request` option, else the runtime's), carrying every init field
 * the caller gave; `fetch` gets one per attempt. When nothing but the runtime's fetch is there to
 * receive it (caller-code.ts decides), an attempt is sent as `globalThis.fetch(url, init)`: the
 * runtime's fetch builds its one Request itself, where handing it ours costs a second one (its own
 * copy of ours; BENCHMARKS.md (a): a Request is 6–12 µs, one following the attempt's signal 14 µs more).
 */

import { runtimeTakesInit } from "./caller-code.ts";
import { AttemptFailure } from "./failure.ts";

/** A `fetch` in openapi-fetch's convention: one Request in, a Response out. */
export type FetchFn = (request: Request) => Promise<Response>;

/** What an attempt is sent with: the call's own `fetch` and `Request` class, if it gave them. */
export interface SendOptions {
  readonly fetch: FetchFn | undefined;
  readonly requestClass: typeof Request | undefined;
  /** The caller's init fields (credentials, cache, `next`, …); the ones a Request lacks are copied onto it. */
  readonly passThrough: Record<string, unknown> | undefined;
}

/**
 * Sends one attempt.
 * @param clientFetch the `fetch` option; undefined: the runtime's fetch, looked up at call time
 *   (so a fetch patched later, as test tools do, is used)
 * @param clientClass the `Request` option
 */
export function sendAttempt(
  url: string,
  init: RequestInit,
  call: SendOptions,
  clientFetch: FetchFn | undefined,
  clientClass: typeof Request | undefined,
): Promise<Response> {
  const fetchFn = call.fetch ?? clientFetch;
  const requestClass = call.requestClass ?? clientClass;
  if (runtimeTakesInit(fetchFn, requestClass)) return globalThis.fetch(url, init);
  const request = requestClass ? built(requestClass, url, init) : new Request(url, init);
  // openapi-fetch copies the init fields a Request does not keep (Next.js `next`) onto it, so a
  // fetch reading them works.
  if (call.passThrough)
    for (const [key, value] of Object.entries(call.passThrough))
      if (!(key in request)) (request as unknown as Record<string, unknown>)[key] = value;
  const sent = fetchFn ? fetchFn(request) : globalThis.fetch(request);
  // Held until the fetch settles. A fetch given a Request copies it, and undici's copy follows the
  // original's signal through weak references: once the Request built here is unreachable, a
  // garbage collection cuts the abort's path to the request in flight, and a cancel or a timeout
  // no longer ends it (nodejs/undici#4068, nodejs/node#55428).
  return Promise.resolve(sent).finally(() => keepAlive(request));
}

/**
 * A Request of the caller's class. One that throws (or is no constructor) fails every attempt
 * alike: the call fails at once, unsent, as for an init the runtime refuses (fetch-failure.ts).
 */
function built(requestClass: typeof Request, url: string, init: RequestInit): Request {
  try {
    return new requestClass(url, init);
  } catch (error) {
    throw new AttemptFailure("refused", false, "the Request class given threw", undefined, error);
  }
}

/** Reads nothing: its call keeps its argument reachable until then. */
function keepAlive(_value: unknown): void {}

/**
 * What a fetch resolved to, checked: a mock (the `fetch` option, a call's own, or the runtime's
 * patched by a test tool) may return anything — undefined, a plain object, a Response-like object
 * built by hand. That is a bug in the caller's code, which another attempt would repeat: a final
 * failure, which the retry policy turns into a NetworkError with the call's context
 * (errors/from-failure.ts). A Response is recognized by its brand (`Symbol.toStringTag`), so
 * another realm's (an npm undici's own class) is one too.
 */
export function checkedResponse(value: unknown): Response {
  if (isResponse(value)) return value;
  const what = value === null ? "null" : typeof value === "object" ? "an object" : typeof value;
  const message = `fetch returned ${what}, not a Response: a fetch (or a mock) must resolve to a Response (new Response(...), Response.json(...))`;
  throw new AttemptFailure("not-a-response", true, message, undefined, new TypeError(message));
}

const isResponse = (value: unknown): value is Response =>
  value instanceof Response ||
  (Object.prototype.toString.call(value) === "[object Response]" &&
    typeof (value as Response).headers?.get === "function");
