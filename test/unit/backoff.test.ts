import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SPEC } from "../../src/limits.ts";
import { backoffDelayMs, rateLimitDelayMs } from "../../src/transport/backoff.ts";

const retry = {
  maxAttempts: 5,
  baseDelayMs: SPEC.backoffBaseMs,
  maxDelayMs: SPEC.backoffCapMs,
  rateLimitDelayMs: [SPEC.rateLimitWaitMinMs, SPEC.rateLimitWaitMaxMs] as const,
  maxRetryAfterMs: 60_000,
  deadlineMs: undefined,
};

describe("backoff (Section 8.3)", () => {
  it("property: every wait lies in [0.7·d, d], d = min(30 000, 500·2^(k−1))", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (k, r) => {
          const d = Math.min(30_000, 500 * 2 ** (k - 1));
          const wait = backoffDelayMs(k, retry, r);
          return wait >= 0.7 * d - 1e-9 && wait <= d;
        },
      ),
    );
  });

  it("the first waits are 500, 1000, 2000 ms at most", () => {
    expect([1, 2, 3].map((k) => backoffDelayMs(k, retry, 0))).toEqual([500, 1000, 2000]);
    expect(backoffDelayMs(20, retry, 0.999999)).toBeGreaterThanOrEqual(21_000);
  });

  it("property: a 429 without Retry-After waits 5 to 10 s", () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (r) => {
        const w = rateLimitDelayMs(retry, r);
        return w >= 5_000 && w <= 10_000;
      }),
    );
  });
});
