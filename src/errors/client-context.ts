/**
 * Section 7: a support report states the partner_id and the environment. An error refused before
 * anything was sent (a `ValidationError`, a `SetupStateError` of a known state) is built by a check
 * that knows the call, not the client; the client completes it with both, at the one place each
 * refusal leaves it (the engine's call, a setup handle's lookup, a helper), before it is thrown.
 */
import { isAudienceError } from "./audience-error.ts";

/** Where a client sends its calls: its partner, once known, and its environment. */
export interface ClientContext {
  readonly partnerId: string | undefined;
  /** The API origin and base path (Section 7 "environment"). */
  readonly environment: string;
}

/** The environment of a base address, as every error and report names it: origin and base path. */
export const environmentOf = (baseUrl: URL): string => `${baseUrl.origin}${baseUrl.pathname}`;

/**
 * `error`, completed with the client's partner and environment when it carries no environment (it
 * was refused before sending; an error of a call that was sent has its own). Anything else is
 * returned as it is.
 */
export function inClient<T>(error: T, context: ClientContext): T {
  if (!isAudienceError(error) || error.environment !== undefined) return error;
  // The error has not left the client yet: completing it keeps its class, stack and cause.
  Object.assign(error, { partnerId: error.partnerId ?? context.partnerId, environment: context.environment });
  return error;
}
