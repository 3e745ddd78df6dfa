/**
 * HTTP-date (RFC 9110 §5.6.7) in one of its three formats — IMF-fixdate, the obsolete RFC 850
 * form, or asctime — always GMT (asctime carries no zone and means GMT). Computed with Date.UTC,
 * never Date.parse, so the local time zone plays no part; a leap second (:60) is the instant after
 * :59. Read by `Retry-After` (transport/retry-after.ts) and the server clock (`Date`).
 */
const DAY = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const LONG_DAY = "(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)";
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const MONTH = `(${MONTHS.join("|")})`;
const TIME = "(\\d{2}):(\\d{2}):(\\d{2})";

// Each is anchored, with fixed-width fields and no nested quantifiers: linear in the input.
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC850_DATE = new RegExp(`^${LONG_DAY}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
const ASCTIME_DATE = new RegExp(`^${DAY} ${MONTH} ( \\d|\\d{2}) ${TIME} (\\d{4})$`);

/** An HTTP-date in epoch ms, or undefined. `now` resolves RFC 850's two-digit year. */
export function parseHttpDate(text: string, now: number): number | undefined {
  let m = IMF_FIXDATE.exec(text);
  if (m) return utc(Number(m[3]), m[2] as string, Number(m[1]), m[4], m[5], m[6]);
  m = RFC850_DATE.exec(text);
  if (m) return utc(fullYear(Number(m[3]), now), m[2] as string, Number(m[1]), m[4], m[5], m[6]);
  m = ASCTIME_DATE.exec(text);
  if (m) return utc(Number(m[6]), m[1] as string, Number((m[2] as string).trim()), m[3], m[4], m[5]);
  return undefined;
}

/**
 * RFC 9110 §5.6.7: a two-digit year that appears to be more than 50 years in the future is the
 * most recent past year with the same last two digits.
 */
function fullYear(twoDigits: number, now: number): number {
  const current = new Date(now).getUTCFullYear();
  let year = current - (current % 100) + twoDigits;
  if (year > current + 50) year -= 100;
  return year;
}

function utc(
  year: number,
  monthName: string,
  day: number,
  hh: string | undefined,
  mm: string | undefined,
  ss: string | undefined,
): number | undefined {
  const month = MONTHS.indexOf(monthName);
  const [h, min, s] = [Number(hh), Number(mm), Number(ss)];
  if (h > 23 || min > 59 || s > 60 || day < 1) return undefined;
  // Date.UTC would read years 0–99 as 1900–1999, and roll a day the month lacks (31 Apr) into
  // the next month: set the fields one by one and refuse a day that rolled.
  const at = new Date(0);
  at.setUTCFullYear(year, month, day);
  if (at.getUTCDate() !== day || at.getUTCMonth() !== month) return undefined;
  return at.setUTCHours(h, min, s, 0); // :60, a leap second, is the instant after :59
}
