/**
 * Retry-After as RFC 9110 defines it (hardening issue, item 7): delay-seconds or an HTTP-date in
 * one of its three formats, always GMT; anything else is absent. The table runs in three time
 * zones, since a date read in local time is the bug this guards against.
 */
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { parseRetryAfter } from "../../src/transport/retry-after.ts";

const NOW = Date.UTC(2026, 10, 23, 12, 0, 0); // Mon, 23 Nov 2026 12:00:00 GMT

const valid: Array<[string, number]> = [
  ["0", 0],
  ["5", 5_000],
  ["120", 120_000],
  ["  7  ", 7_000],
  ["007", 7_000],
  // IMF-fixdate
  ["Mon, 23 Nov 2026 12:00:30 GMT", 30_000],
  ["Tue, 24 Nov 2026 12:00:00 GMT", 86_400_000],
  ["Mon, 23 Nov 2026 11:00:00 GMT", 0], // in the past: at once
  ["Mon, 23 Nov 2026 12:00:60 GMT", 60_000], // leap second: the instant after :59
  // obsolete RFC 850 (two-digit year, weekday in full)
  ["Monday, 23-Nov-26 12:01:00 GMT", 60_000],
  // asctime (no zone: GMT), day padded with a space
  ["Mon Nov 23 12:00:10 2026", 10_000],
  ["Tue Dec  1 12:00:00 2026", 8 * 86_400_000],
];

const invalid = [
  "",
  "wait 3",
  "Retry in 5",
  "-5",
  "1.5",
  "1e3",
  "+5",
  "5 s",
  "0x10",
  "Mon, 23 Nov 2026 12:00:30 UTC", // only GMT
  "Mon, 23 Nov 2026 12:00:30 +0000",
  "Mon, 23 Nov 2026 12:00:30", // IMF without zone
  "mon, 23 Nov 2026 12:00:30 GMT", // names are case-sensitive
  "Mon, 23 nov 2026 12:00:30 GMT",
  "Mon, 31 Apr 2026 12:00:30 GMT", // no such day
  "Mon, 23 Nov 2026 24:00:00 GMT",
  "Mon, 23 Nov 2026 12:60:00 GMT",
  "Mon, 23 Nov 2026 12:00:61 GMT",
  "Mon, 3 Nov 2026 12:00:30 GMT", // day is two digits
  "Mon Nov 23 12:00:10 2026 GMT",
  "2026-11-23T12:00:30Z", // ISO 8601 is not an HTTP-date
  "Monday, 23-Nov-2026 12:01:00 GMT",
  "Mon,  23 Nov 2026 12:00:30 GMT",
];

const zones = ["UTC", "Pacific/Kiritimati", "Etc/GMT+5"];
const originalTz = process.env.TZ;
afterEach(() => {
  if (originalTz === undefined) delete process.env.TZ;
  else process.env.TZ = originalTz;
});

describe.each(zones)("parseRetryAfter (TZ=%s)", (tz) => {
  it.each(valid)("reads %j as %i ms", (value, ms) => {
    process.env.TZ = tz;
    expect(parseRetryAfter(value, NOW)).toBe(ms);
  });
  it.each(invalid)("treats %j as absent", (value) => {
    process.env.TZ = tz;
    expect(parseRetryAfter(value, NOW)).toBeUndefined();
  });
});

describe("parseRetryAfter edge cases", () => {
  it("reads RFC 850 years more than 50 years ahead as the past century", () => {
    // In 2026, "76" is 2076 (50 years ahead at most) and "77" is 1977 (in the past: at once).
    expect(parseRetryAfter("Monday, 23-Nov-76 12:00:00 GMT", NOW)).toBe(Date.UTC(2076, 10, 23, 12) - NOW);
    expect(parseRetryAfter("Tuesday, 23-Nov-77 12:00:00 GMT", NOW)).toBe(0);
  });
  it("absent header is absent", () => {
    expect(parseRetryAfter(null, NOW)).toBeUndefined();
  });
  it("a huge delay-seconds is returned as asked (the ceiling decides), never negative or NaN", () => {
    expect(parseRetryAfter("99999999999", NOW)).toBe(99_999_999_999_000);
    expect(parseRetryAfter("9".repeat(400), NOW)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe("parseRetryAfter properties", () => {
  it("seconds round-trip, any future IMF-fixdate gives its distance, any string gives absent or a wait ≥ 0", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 86_400 }), (s) => parseRetryAfter(String(s), NOW) === s * 1000));
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 86_400 }),
        (s) => parseRetryAfter(new Date(NOW + s * 1000).toUTCString(), NOW) === s * 1000,
      ),
    );
    fc.assert(
      fc.property(fc.string(), (text) => {
        const v = parseRetryAfter(text, NOW);
        return v === undefined || v >= 0;
      }),
    );
  });
});
