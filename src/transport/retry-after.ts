/**
 * `Retry-After` as RFC 9110 §10.2.3 defines it: delay-seconds (one or more digits, nothing else),
 * or an HTTP-date (§5.6.7) in one of its three formats — IMF-fixdate, the obsolete RFC 850 form,
 * or asctime — always in GMT (asctime carries no zone and means GMT). Every other value counts as
 * absent, so the caller applies the rule for a missing header (Section 8.3: wait 5 to 10 s after a
 * 429). Dates are computed with Date.UTC, never Date.parse, so the local time zone plays no part;
 * a leap second (:60) is the instant after :59.
 */
import { parseHttpDate } from "../internal/http-date.ts";

const DELAY_SECONDS = /^\d+$/;

/** The wait `value` asks for, in ms from `now`; undefined when absent or not RFC 9110 syntax. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim(); // optional whitespace around a field value (RFC 9110 §5.5)
  if (DELAY_SECONDS.test(text)) return Number(text) * 1000; // may be huge: the caller's ceiling decides
  const date = parseHttpDate(text, now);
  return date === undefined ? undefined : Math.max(0, date - now);
}
