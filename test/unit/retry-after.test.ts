/**
 * Retry-After as RFC 9110 defines it: delay-seconds or an HTTP-date in
 * one of its three formats, always GMT; anything else is absent. The table runs in three time
 * zones, since a date read in local time is the bug this guards against.
 */
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createClientWithSeams } from "../../src/create-client.ts";
import { createAudienceClient } from "../../src/index.ts";
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

describe("Retry-After through the client", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("reads each response's Retry-After once: the limiter's cool-down and the retry's wait share it", async () => {
    const answers = [
      () => Response.json({ code: "error.rate" }, { status: 429, headers: { "retry-after": "0" } }),
      () => Response.json({ code: "error.unavailable" }, { status: 503, headers: { "retry-after": "0" } }),
      () => Response.json({ id: "e1" }),
    ];
    let sent = 0;
    const client = createAudienceClient({
      baseUrl: "http://127.0.0.1:9/api/v3",
      session: { accessToken: "access-token-retry-after-once" },
      partnerId: "acme",
      ratePacing: false,
      retry: { baseDelayMs: 1, maxDelayMs: 5, rateLimitDelayMs: [1, 3] },
      fetch: async () => (answers[sent++] as () => Response)(),
    });
    await client.GET("/events/", {}); // the engine is loaded and the session in use before counting
    sent = 0;
    const get = Headers.prototype.get;
    let reads = 0;
    vi.spyOn(Headers.prototype, "get").mockImplementation(function (this: Headers, name: string) {
      if (name.toLowerCase() === "retry-after") reads += 1;
      return get.call(this, name);
    });
    const result = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    expect(result.data).toEqual({ id: "e1" });
    expect(sent).toBe(3);
    expect(reads).toBe(2); // one per response that carried it: the 429 and the 503
  });

  it("judges an HTTP-date in the server's time (its Date header), not the local clock", async () => {
    const serverNow = Math.floor((Date.now() + 2 * 3600_000) / 1000) * 1000; // the server runs 2 h ahead
    const waits: number[] = [];
    let sent = 0;
    const client = createClientWithSeams(
      {
        baseUrl: "http://127.0.0.1:9/api/v3",
        session: { accessToken: "access-token-retry-after-date" },
        partnerId: "acme",
        ratePacing: false,
        fetch: async () =>
          sent++ === 0
            ? Response.json(
                { code: "error.rate" },
                {
                  status: 429,
                  headers: {
                    date: new Date(serverNow).toUTCString(),
                    "retry-after": new Date(serverNow + 3000).toUTCString(),
                  },
                },
              )
            : Response.json({ id: "e1" }),
      },
      { retryHooks: { random: () => 0, sleep: async (ms) => void waits.push(ms) } },
    );
    const result = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    expect(result.data).toEqual({ id: "e1" });
    expect(waits).toHaveLength(1);
    // 3 s after the server's Date, less the part of its second already gone (Date has whole seconds).
    expect(waits[0]).toBeGreaterThanOrEqual(2000);
    expect(waits[0]).toBeLessThanOrEqual(3000);
  });
});
