/**
 * What the caller's code can see of a call: every shortcut of the request path asks here, and
 * nowhere else decides it. The caller's code is a middleware (the client's `use`, or a call's own
 * `middleware`), a `fetch` (the client's option, or a call's own) and a `Request` class (the same
 * two places). A shortcut is taken only where none of them is there to notice it:
 *
 * - without a middleware, openapi-fetch builds the client's plain OutgoingRequest, not a Request
 *   (a Request is 6–12 µs, and the transport would only read it back into a record);
 * - without a middleware, the transport parses a 2xx itself and openapi-fetch takes the stream
 *   (no one else reads the body); with one, the body is handed back readable again;
 * - without a middleware, the call's operation is the URL's (nothing can have rewritten it);
 * - without a middleware, a call waits for the partner's turn before openapi-fetch builds it (with
 *   one, the middleware sees the call at once, as in openapi-fetch's order);
 * - without a `fetch` or a `Request` class of the caller's, an attempt reaches the runtime's fetch
 *   as (url, init), which builds its one Request itself.
 *
 * One thing is never shared whoever receives it: an attempt's AbortController is its own
 * (timeout-policy.ts). Reusing controllers where the global fetch looked like the runtime's own
 * cannot be made safe: a fetch replaced before the package loads (msw's `setupServer` in a test
 * setup file, a wrapper given with `--import`, a framework's) cannot be told from the runtime's
 * (Node's own fetch is JavaScript too), and a wrapper then saw finished requests abort later, with
 * another call's reason.
 */

/** What a call says about the caller's code it brings. */
interface CallersOwn {
  readonly middleware: boolean;
}

/** Whether a user's middleware sees the call: one registered on the client, or the call's own. */
export function middlewareSees(onClient: boolean, callMiddleware: unknown): boolean {
  return onClient || (Array.isArray(callMiddleware) && callMiddleware.length > 0);
}

/**
 * The class openapi-fetch builds a call's request with: a real Request of the caller's class (the
 * call's, else the client's option, else the runtime's) when a middleware will see it; else
 * undefined (the client's default, OutgoingRequest).
 */
export function openapiRequestClass(
  call: CallersOwn & { readonly requestClass: typeof Request | undefined },
  clientClass: typeof Request | undefined,
): typeof Request | undefined {
  return call.middleware ? (call.requestClass ?? clientClass ?? globalThis.Request) : undefined;
}

/** Whether the transport parses a described operation's 2xx itself (openapi-fetch then takes the stream). */
export const parsedByTransport = (call: CallersOwn & { readonly parseJson: boolean }): boolean =>
  call.parseJson && !call.middleware;

/** Whether the response handed back must keep a readable body: a middleware's `onResponse` may read it. */
export const bodyKeptReadable = (call: CallersOwn | undefined): boolean => call?.middleware ?? false;

/** Whether the call's own operation names the URL sent (no middleware can have rewritten the request). */
export const operationUnchanged = (call: CallersOwn): boolean => !call.middleware;

/** Whether the call may wait for its turn before openapi-fetch builds it (no middleware sees it first). */
export const mayWaitUnbuilt = (call: CallersOwn): boolean => !call.middleware;

/**
 * Whether an attempt goes to the runtime's fetch as (url, init): no `fetch` and no `Request` class
 * of the caller's (the call's own or the client's) is there to receive a Request.
 */
export const runtimeTakesInit = (fetchFn: unknown, requestClass: unknown): boolean => !fetchFn && !requestClass;
