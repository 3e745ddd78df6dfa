/**
 * The last step: the caller's fetch. The body is read inside the attempt, so a connection reset
 * mid-body, a truncated body or unparseable JSON is a failed attempt (retryable), not a crash later
 * in openapi-fetch; and the concurrency slot is held until the body is complete.
 */
import { AttemptFailure, describeNetworkError } from "./failure.ts";
import type { CallContext, Next } from "./policy.ts";

export function fetchTerminal(fetchFn: (request: Request) => Promise<Response>): Next {
  return async (request: Request, ctx: CallContext) => {
    let response: Response | undefined;
    let body: ArrayBuffer;
    // Section 7: the x-request-id identifies a failing call for support, so a reply that arrived
    // but cannot be used (reset mid-body, not JSON) keeps it for the error that reports it.
    const requestId = (): string | undefined => response?.headers.get("x-request-id") ?? undefined;
    try {
      response = await fetchFn(request);
      body = await response.arrayBuffer();
    } catch (error) {
      if (request.signal.aborted) throw request.signal.reason;
      throw describeNetworkError(error, requestId());
    }
    if (response.ok && body.byteLength > 0 && ctx.method !== "HEAD") {
      // Every operation of the description answers JSON; a 2xx that is not JSON is a broken reply.
      const type = response.headers.get("content-type");
      if (type && !/json/i.test(type)) throw new AttemptFailure("malformed", true, `response content type is ${type}, not JSON`, requestId());
      try {
        JSON.parse(new TextDecoder().decode(body));
      } catch {
        throw new AttemptFailure("malformed", true, "response body is not valid JSON", requestId());
      }
    }
    // The body is decoded now: its original encoding and length no longer describe it.
    const headers = new Headers(response.headers);
    headers.delete("content-encoding");
    headers.delete("content-length");
    const nullBody = response.status === 204 || response.status === 304 || ctx.method === "HEAD";
    return new Response(nullBody ? null : body, { status: response.status, statusText: response.statusText, headers });
  };
}
