/**
 * The browser build's log-env.ts: a page has no environment variables, so `AUDIENCE_LOG` is never
 * read there (scripts/browser-build.mjs swaps this module in).
 */
import type { Logger } from "../option-types.ts";

/** No stderr logger in a page: give the `logger` option instead. */
export function envLogger(): Logger | undefined {
  return undefined;
}
