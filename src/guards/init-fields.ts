/**
 * The fields of a call's init that the client or openapi-fetch read themselves, checked before
 * anything is sent: a `fetch` that is not a function, a body on a GET, an unknown `priority` or
 * `parseAs` would otherwise fail inside the attempt as a TypeError, which the Fetch standard also
 * uses for network failures, and be retried five times as one; an unknown `parseAs` would fail only
 * after the write was sent. Each is a ValidationError issue naming the field, without its value.
 * The enums a runtime checks itself (`cache`, `mode`, `credentials`, `referrerPolicy`, …) are left
 * to it: its refusal is caught once, in the transport (fetch-terminal.ts); of their values, only
 * `mode: "no-cors"` is refused here, as a browser would build and send it.
 */
import type { ValidationIssue } from "../errors/validation-error.ts";
import { signalIssues } from "../internal/abort-signal.ts";
import { isMiddleware, NOT_MIDDLEWARE } from "./middleware.ts";

/** openapi-fetch's `parseAs` (its types), and the body readers it also reaches at run time. */
const PARSE_AS = new Set(["json", "text", "blob", "arrayBuffer", "stream", "formData", "bytes"]);

/**
 * An HTTP method: a token (RFC 9110 section 5.6.2), not one the Fetch standard forbids (CONNECT,
 * TRACE, TRACK). `client.request` upper-cases it first.
 */
const METHOD = /^(?!(?:CONNECT|TRACE|TRACK)$)[!#$%&'*+.^_`|~0-9A-Z-]+$/;

/** The Fetch standard's RequestPriority; the client reads "low" as the background lane. */
const PRIORITIES = new Set(["high", "low", "auto"]);

/** The issues of `init`'s fields; none for an init without those fields (the common call). */
export function initIssues(method: string, init: Record<string, unknown>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (typeof method !== "string" || !METHOD.test(method))
    issues.push({ field: "method", message: "must be an HTTP method (a token; not CONNECT, TRACE or TRACK)" });
  const { signal, fetch, Request, parseAs, middleware, priority, body, headers, mode } = init;
  issues.push(...signalIssues(signal));
  if (fetch !== undefined && typeof fetch !== "function")
    issues.push({ field: "fetch", message: "must be a function" });
  if (Request !== undefined && typeof Request !== "function")
    issues.push({ field: "Request", message: "must be a Request class" });
  if (parseAs !== undefined && !PARSE_AS.has(parseAs as string))
    issues.push({ field: "parseAs", message: 'must be one of "json", "text", "blob", "arrayBuffer", "stream"' });
  if (middleware !== undefined && !Array.isArray(middleware))
    issues.push({ field: "middleware", message: "must be an array of middleware" });
  else
    middleware?.forEach((m: unknown, i: number) => {
      if (m && !isMiddleware(m)) issues.push({ field: `middleware.${i}`, message: NOT_MIDDLEWARE });
    });
  if (priority !== undefined && !PRIORITIES.has(priority as string))
    issues.push({ field: "priority", message: 'must be one of "high", "low", "auto"' });
  // The Fetch standard drops Authorization and X-Preferred-Partner-Id from a no-cors request and
  // hides its answer (an opaque response): in a page such a call can never work.
  if (mode === "no-cors")
    issues.push({
      field: "mode",
      message: 'must not be "no-cors" (it drops the Authorization header and hides the answer)',
    });
  // openapi-fetch sends any body but undefined, null as the text "null".
  if (body !== undefined && (method === "GET" || method === "HEAD"))
    issues.push({ field: "body", message: `a ${method} request has no body` });
  if (headers != null && typeof headers !== "object")
    issues.push({ field: "headers", message: "must be an object, Headers or [name, value] pairs" });
  return issues;
}
