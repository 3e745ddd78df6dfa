/**
 * The last step: builds the attempt's one Request and sends it. The body is read inside the
 * attempt, so a connection reset mid-body, a truncated body or unparseable JSON is a failed attempt
 * (retryable), not a crash later in openapi-fetch; and the concurrency slot is held until the body
 * is complete.
 *
 * A 2xx of a call that reads JSON is parsed here, once, and handed back with the response (a
 * Reply: openapi-fetch is told not to parse it again); every other response is handed on with its
 * body read into memory.
 */
import type { OperationInfo } from "../../generated/operations.ts";
import { AttemptFailure } from "./failure.ts";
import { describeNetworkError, initRefusal } from "./fetch-failure.ts";
import type { Attempt, CallContext, Next, Reply } from "./policy.ts";
import { readBody } from "./read-body.ts";
import { checkedResponse, type FetchFn, sendAttempt } from "./send-attempt.ts";

const decoder = new TextDecoder();

/**
 * @param fetchFn the `fetch` option, called with one Request per attempt; undefined: the runtime's
 * @param requestClass the `Request` option: the class of the Requests `fetch` gets
 * @param maxResponseBytes the largest body read (option `maxResponseBytes`)
 * @param onUnparsed told of a described operation's 2xx that could not be read as JSON (another
 *   media type): drift (option `onDrift`), though the attempt fails and the call never has a result
 */
export function fetchTerminal(
  fetchFn: FetchFn | undefined,
  requestClass: typeof Request | undefined,
  maxResponseBytes: number,
  onUnparsed?: (op: OperationInfo, response: Response) => void,
): Next {
  return async (attempt: Attempt, ctx: CallContext): Promise<Reply> => {
    // What the caller gave the call (credentials, cache, keepalive, `next`, …) goes on as given;
    // method, headers, body, signal and redirect are the transport's.
    const init: RequestInit = {
      ...ctx.passThrough,
      method: attempt.method,
      headers: attempt.headers,
      body: attempt.body,
      redirect: "manual",
    };
    if (attempt.signal) init.signal = attempt.signal;
    let response: Response | undefined;
    // Every failure of the attempt takes the response's request id in the catch below, read only
    // then: a call that succeeds never looks for it.
    try {
      response = checkedResponse(await sendAttempt(attempt.url, init, ctx, fetchFn, requestClass));
      // A Response of status 0 has nothing to read: a redirect the runtime hides (the transport's
      // `redirect: "manual"`), a network error (`Response.error()`, a mock's stand-in for one), or
      // an opaque answer to a call given `mode: "no-cors"`, which another attempt would repeat.
      const { type } = response;
      if (type === "opaqueredirect")
        throw new AttemptFailure("redirect", true, "redirect not followed (the runtime hides its target)");
      if (type === "error")
        throw new AttemptFailure("network", true, "network error: fetch resolved to Response.error()");
      if (type === "opaque") throw new AttemptFailure("not-a-response", true, 'opaque response (mode "no-cors")');
      if (ctx.parseJson && response.ok && response.status !== 204 && ctx.method !== "HEAD") {
        const text = decoder.decode(await readBody(response, maxResponseBytes));
        const data = text ? parseJson(text, response.headers.get("content-type")) : undefined;
        // A user's middleware may read the body (response.clone().json()): hand it a readable one.
        return { response: ctx.keepBody ? bodyAgain(response, text) : response, parsed: { data } };
      }
      const body = await readBody(response, maxResponseBytes);
      // Checked as JSON, and the result handed back too: the session reads its sign-in body from it
      // rather than decoding and parsing a multi-megabyte token a second time.
      const checked =
        response.ok && ctx.expectJson && body.byteLength > 0 && ctx.method !== "HEAD"
          ? { data: parseJson(decoder.decode(body), response.headers.get("content-type")) }
          : undefined;
      // The body is decoded now: its original encoding and length no longer describe it. An empty
      // one says so, as openapi-fetch reads it (Content-Length: 0 → undefined data and error).
      const headers = decodedHeaders(response);
      if (body.byteLength === 0) headers.set("content-length", "0");
      const nullBody = response.status === 204 || response.status === 304 || ctx.method === "HEAD";
      const read = new Response(nullBody ? null : body, {
        status: response.status,
        statusText: response.statusText,
        headers,
      });
      return { response: read, parsed: checked };
    } catch (error) {
      // A failure after the headers arrived (timeout, deadline, size) keeps their request id (Section 7).
      if (error instanceof AttemptFailure) {
        if (error.kind === "malformed" && response?.ok && ctx.op) onUnparsed?.(ctx.op, response);
        throw error.withRequestId(requestIdOf(response));
      }
      if (attempt.signal?.aborted) {
        const reason: unknown = attempt.signal.reason;
        throw reason instanceof AttemptFailure ? reason.withRequestId(requestIdOf(response)) : reason;
      }
      // The Fetch standard's TypeError is also what a runtime throws for an init it cannot build a
      // request from: the same init fails every attempt, so it is told apart once, here.
      const refused = error instanceof TypeError && response === undefined ? initRefusal(attempt.url, init) : undefined;
      throw refused ?? describeNetworkError(error, requestIdOf(response));
    }
  };
}

/**
 * Section 7: the x-request-id identifies a failing call for support, so a reply that arrived but
 * cannot be used (reset mid-body, not JSON) keeps it for the error that reports it.
 */
const requestIdOf = (response: Response | undefined): string | undefined =>
  response?.headers.get("x-request-id") ?? undefined;

/** Every operation of the description answers JSON; a 2xx that is not JSON is a broken reply. */
function parseJson(text: string, type: string | null): unknown {
  if (type && !/json/i.test(type))
    throw new AttemptFailure("malformed", true, `response content type is ${type}, not JSON`);
  try {
    return JSON.parse(text);
  } catch {
    throw new AttemptFailure("malformed", true, "response body is not valid JSON");
  }
}

/** The same response with its (already read and decoded) body readable again. */
function bodyAgain(response: Response, text: string): Response {
  return new Response(text, {
    status: response.status,
    statusText: response.statusText,
    headers: decodedHeaders(response),
  });
}

/** A read body is decoded: its original encoding and length no longer describe it. */
function decodedHeaders(response: Response): Headers {
  const headers = new Headers(response.headers);
  headers.delete("content-encoding");
  headers.delete("content-length");
  return headers;
}
