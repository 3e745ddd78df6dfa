/**
 * What a failure in a browser usually means, for the error messages. A browser hides the reason of
 * a failed cross-origin fetch (a TypeError such as "Failed to fetch"), and the response headers
 * the API does not expose through CORS: both look like something else unless the message says so.
 */
import { isBrowserLike } from "../internal/runtime.ts";

/** Appended to a network failure without an error code (the browser hides it); empty elsewhere. */
export function networkFailureHint(): string {
  return isBrowserLike()
    ? " (in a browser usually CORS: the API must allow this origin, Authorization and X-Preferred-Partner-Id)"
    : "";
}

/**
 * Appended to an error whose response carried no readable `x-request-id` when a browser called
 * another origin: the header exists there only if the API lists it in Access-Control-Expose-Headers.
 */
export function hiddenRequestIdHint(url = ""): string {
  try {
    if (isBrowserLike() && new URL(url).origin !== globalThis.location.origin)
      return " [no request id: the API must list x-request-id in Access-Control-Expose-Headers]";
  } catch {}
  return "";
}
