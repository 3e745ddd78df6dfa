/**
 * Which window a token is in, from its `exp`, the margins and now (all wall time, the server's when
 * known). Pure: no clock of its own, no state.
 *
 * - fresh: serve it;
 * - background: past the refresh margin, serve it while one refresh runs in the background;
 * - mandatory: past the hard margin, wait for the refresh (no request leaves with a token about to
 *   expire in flight).
 *
 * The margins are client choices (the specification gives a lifetime, about 1 hour, Section 5.2,
 * and no margin), documented at CLIENT_DEFAULTS: the refresh margin is `tokenRefreshSkewMs` (60 s)
 * or half the remaining lifetime when shorter, the hard margin `tokenHardMarginMs` (10 s) or a
 * tenth of it. The halves and tenths stay here, not in CLIENT_DEFAULTS: that object is in the
 * bundle every app loads up front, and they serve only this lazily loaded module.
 */
import { CLIENT_DEFAULTS } from "../limits.ts";

export type TokenWindow = "fresh" | "background" | "mandatory";

/** When a token is due: its expiry, and the instants its refresh and hard margins begin. */
export interface TokenTimes {
  /** The access token's `exp` in ms; undefined when it has none (then it never falls due). */
  readonly expiry: number | undefined;
  /** From here the token is refreshed in the background. */
  readonly renewAt: number;
  /** From here calls wait for the refresh. */
  readonly hardAt: number;
}

/** The times of a token whose `exp` is `expiry`, received (or loaded) at `now`. */
export function tokenTimes(expiry: number | undefined, now: number): TokenTimes {
  if (expiry === undefined) return { expiry, renewAt: Number.POSITIVE_INFINITY, hardAt: Number.POSITIVE_INFINITY };
  const lifetime = Math.max(0, expiry - now);
  const refresh = Math.min(CLIENT_DEFAULTS.tokenRefreshSkewMs, lifetime / 2);
  const hard = Math.min(CLIENT_DEFAULTS.tokenHardMarginMs, lifetime / 10);
  return { expiry, renewAt: expiry - refresh, hardAt: expiry - hard };
}

/** The window at `now`; `fresh` overrides the margins (a token received since the call began). */
export function tokenWindow(times: TokenTimes, now: number, fresh = false): TokenWindow {
  if (now < times.renewAt || fresh) return "fresh";
  return now < times.hardAt ? "background" : "mandatory";
}

/** The times once the token is no longer valid at `now` (a 401 refused it): every margin has passed. */
export function expiredAt(times: TokenTimes, now: number): TokenTimes {
  const expiry = Math.min(times.expiry ?? Number.POSITIVE_INFINITY, now);
  return { expiry, renewAt: Math.min(times.renewAt, expiry), hardAt: Math.min(times.hardAt, expiry) };
}

/** The times when the refresh is put off until `until` (a cool-down's end), never past the expiry. */
export function postponedTo(times: TokenTimes, until: number): TokenTimes {
  return { ...times, renewAt: Math.min(times.expiry ?? Number.POSITIVE_INFINITY, until) };
}
