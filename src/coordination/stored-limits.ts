/**
 * The longest times a shared store may hold, whatever it says: a store is never trusted beyond what
 * this client could have written there. A value past these (a record written before the host clock
 * stepped back an hour, or by something else than this client) is cut to them.
 */
import { CLIENT_DEFAULTS, SPEC } from "../limits.ts";

/**
 * The longest /auth cool-down a client writes for its group: its longest Retry-After wait, above
 * Section 8.3's backoff cap (30 s, plus its jitter) and its 5-10 s wait after a 429. A longer
 * Retry-After still holds the process that met it; the group waits this long at most.
 */
export const LONGEST_SHARED_COOL_DOWN_MS = Math.max(
  CLIENT_DEFAULTS.maxRetryAfterMs,
  SPEC.backoffCapMs * (1 + SPEC.backoffJitter),
  SPEC.rateLimitWaitMaxMs,
);

/** `ms` left of a stored deadline, cut to `longest`: 0 when it has passed or is not a number. */
export function trustedMsLeft(ms: number, longest: number): number {
  if (!Number.isFinite(ms) || ms <= 0) return 0;
  return Math.min(ms, longest);
}
