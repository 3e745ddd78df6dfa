/**
 * The server's clock, learned from the `Date` header of its responses. A token's
 * `exp` and an HTTP-date `Retry-After` are instants of the server's clock; a client whose own clock
 * is minutes or hours off must judge them in server time, or it refreshes on every call (clock
 * fast) or sends expired tokens (clock slow).
 *
 * Each response bounds the skew (server minus local): the server stamped `Date` (whole seconds,
 * rounded down) at some instant between sending and receiving, so
 * `Date − received ≤ skew < Date + 1 s − sent`. Consistent bounds are intersected (they narrow to
 * well under a second); a response whose bounds do not meet the current ones means one of the
 * clocks stepped, and it replaces them. The skew in force is the middle of the bounds, changed only
 * when that middle moves by more than Date's resolution (1 s): clocks that agree keep a skew of 0,
 * and server time never steps back by the few hundred ms a narrowing of the bounds moves it.
 *
 * Ignored, so they change nothing: a missing or unparsable `Date`, a skew beyond
 * ±MAX_PLAUSIBLE_SKEW_MS (a server or proxy stamping a wrong year is likelier than a client a day
 * off), and a response that took longer than MAX_ROUND_TRIP_MS (its bounds are too loose to help).
 */
import { parseHttpDate } from "./http-date.ts";

/** A skew beyond a day is taken for a wrong `Date`, not a wrong local clock. */
export const MAX_PLAUSIBLE_SKEW_MS = 24 * 60 * 60 * 1000;
/** A response slower than this bounds the skew too loosely to be used. */
export const MAX_ROUND_TRIP_MS = 30_000;
/** Date has whole seconds. */
const RESOLUTION_MS = 1000;

export class ServerClock {
  #low = Number.NEGATIVE_INFINITY;
  #high = Number.POSITIVE_INFINITY;
  #skew = 0;
  #known = false;
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Server time minus local time, in ms (0 until a response said otherwise). */
  get skewMs(): number {
    return this.#skew;
  }

  /** Whether some response's `Date` was used: until then the server's time is unknown. */
  get known(): boolean {
    return this.#known;
  }

  /** Now, on the server's clock (epoch ms). */
  now(): number {
    return this.#now() + this.#skew;
  }

  /**
   * A response's `Date` header, with the local wall-clock times the request was sent and the
   * response received. Returns whether it was used.
   */
  observe(date: string | null | undefined, sentAt: number, receivedAt: number): boolean {
    if (!date || receivedAt < sentAt || receivedAt - sentAt > MAX_ROUND_TRIP_MS) return false;
    const stamped = parseHttpDate(date.trim(), receivedAt);
    if (stamped === undefined) return false;
    const low = stamped - receivedAt;
    const high = stamped + RESOLUTION_MS - sentAt;
    if (Math.abs(low) > MAX_PLAUSIBLE_SKEW_MS || Math.abs(high) > MAX_PLAUSIBLE_SKEW_MS) return false;
    if (low >= this.#high || high <= this.#low) {
      // Does not meet what was known: a clock stepped. The newest response wins.
      this.#low = low;
      this.#high = high;
    } else {
      this.#low = Math.max(this.#low, low);
      this.#high = Math.min(this.#high, high);
    }
    this.#known = true;
    const middle = Math.round((this.#low + this.#high) / 2);
    if (Math.abs(middle - this.#skew) > RESOLUTION_MS) this.#skew = middle;
    return true;
  }
}
