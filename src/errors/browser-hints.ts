/**
 * What a failure in a browser usually means, for the error messages. A browser hides the reason of
 * a failed cross-origin fetch (a TypeError such as "Failed to fetch"), and the response headers
 * the API does not expose through CORS: both look like something else unless the message says so.
 */
import { isBrowserLike } from "../internal/runtime.ts";

const CORS_NEEDS =
  "allow this page's origin, the Authorization, Content-Type and X-Preferred-Partner-Id request headers (preflight included)";

/** Appended to a network failure without an error code (the browser hides it); empty elsewhere. */
export function networkFailureHint(): string {
  if (!isBrowserLike()) return "";
  return ` (in a browser this usually means CORS: the API must ${CORS_NEEDS}; or the host is unreachable)`;
}

/**
 * Appended to an error whose response carried no readable `x-request-id` when the call went to
 * another origin from a browser: the header exists only if the API lists it in
 * Access-Control-Expose-Headers. Empty elsewhere.
 */
export function hiddenRequestIdHint(url: string | undefined): string {
  if (!url || !isBrowserLike()) return "";
  const here = (globalThis as { location?: { origin?: unknown } }).location?.origin;
  let there: string;
  try {
    there = new URL(url).origin;
  } catch {
    return "";
  }
  if (typeof here !== "string" || here === there) return "";
  return " [no request id readable: a browser sees x-request-id from another origin only if the API lists it in Access-Control-Expose-Headers]";
}
