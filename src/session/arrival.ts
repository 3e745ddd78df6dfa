/**
 * A token's `exp` is an instant of the server's clock (Section 5.2), so a token received just now
 * is judged against the server's own time of the response that carried it: its `Date`. A sign-in
 * whose AccessToken had expired before that is refused by the server on every call it is sent
 * with; the client does not send it. Without a usable `Date`, the server's clock learned from
 * earlier responses judges (internal/server-clock.ts); with neither, an `exp` in the past is a
 * clock matter (ours may be fast) and the server that just issued the token is the judge.
 */
import { parseHttpDate } from "../internal/http-date.ts";
import { jwtExpiryMs } from "../internal/jwt.ts";
import { MAX_PLAUSIBLE_SKEW_MS } from "../internal/server-clock.ts";

/**
 * How long (ms) before the server's time of `response` the token had expired; undefined when it
 * had not, has no `exp`, or the server's time is unknown.
 * @param serverNow the server's clock, when it is known from earlier responses
 */
export function expiredBeforeArrivalMs(
  token: string,
  response: Response,
  serverNow: (() => number) | undefined,
): number | undefined {
  const exp = jwtExpiryMs(token);
  if (exp === undefined) return undefined;
  const local = Date.now();
  const date = response.headers.get("date");
  const stamped = date ? parseHttpDate(date.trim(), local) : undefined;
  // A Date a day or more off is a wrong Date, not a wrong local clock (as server-clock.ts takes it).
  const usable = stamped !== undefined && Math.abs(stamped - local) <= MAX_PLAUSIBLE_SKEW_MS;
  const now = usable ? stamped : serverNow?.();
  return now !== undefined && exp <= now ? now - exp : undefined;
}
