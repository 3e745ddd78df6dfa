/**
 * What every attempt is sent with: the base `headers`, the `fetch` and `Request` options, the
 * partner's concurrency (Section 8.4), the retry policy and the per-attempt limits.
 */

import type { HeadersOptions } from "openapi-fetch";
import { headerIssues } from "../guards/request-values.ts";
import { isPlainObject } from "../internal/is-record.ts";
import { CLIENT_DEFAULTS, SPEC } from "../limits.ts";
import type { AudienceClientOptions, ClientConfig } from "../option-types.ts";
import { fail, own, positiveInt } from "./checks.ts";
import { retryOptions } from "./retry.ts";

type TransportConfig = Pick<
  ClientConfig,
  "headers" | "fetch" | "Request" | "maxConcurrency" | "retry" | "timeoutMs" | "maxResponseBytes"
>;

export function transportOptions(options: AudienceClientOptions): TransportConfig {
  const fetchFn = options.fetch;
  if (typeof (fetchFn ?? globalThis.fetch) !== "function")
    fail("fetch", "must be a function (no global fetch in this runtime)");
  const RequestClass = options.Request;
  if (RequestClass !== undefined && typeof RequestClass !== "function") fail("Request", "must be a Request class");
  return {
    headers: baseHeaders(options.headers),
    fetch: fetchFn,
    Request: RequestClass,
    maxConcurrency: positiveInt("maxConcurrency", options.maxConcurrency, SPEC.maxConcurrency, SPEC.maxConcurrency),
    retry: retryOptions(options.retry),
    timeoutMs: positiveInt("timeoutMs", options.timeoutMs, CLIENT_DEFAULTS.attemptTimeoutMs),
    maxResponseBytes: positiveInt(
      "maxResponseBytes",
      options.maxResponseBytes,
      CLIENT_DEFAULTS.maxResponseBytes,
      CLIENT_DEFAULTS.maxResponseBytesCeiling,
    ),
  };
}

/** openapi-fetch's `headers` option, checked once as a call's headers are (guards/request-values.ts). */
function baseHeaders(value: unknown): HeadersOptions | undefined {
  if (value === undefined || value instanceof Headers) return value === undefined ? undefined : new Headers(value);
  // A Map's entries (or another library's Headers') would be dropped in silence: only a plain object's are read.
  if (!isPlainObject(value)) return fail("headers", "must be a Headers object or a plain object");
  // Read once: what is checked is what every call sends.
  const headers = own(value);
  const [issue] = headerIssues(headers, "headers");
  if (issue) fail(issue.field, issue.message);
  return Object.freeze(headers) as HeadersOptions;
}
