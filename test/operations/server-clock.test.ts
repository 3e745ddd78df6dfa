/** ServerClock: the skew learned from Date headers, and what is ignored. */
import { describe, expect, it } from "vitest";
import { MAX_PLAUSIBLE_SKEW_MS, MAX_ROUND_TRIP_MS, ServerClock } from "../../src/internal/server-clock.ts";

const httpDate = (ms: number): string => new Date(ms).toUTCString();
const T0 = Date.UTC(2026, 10, 23, 12, 0, 0, 0);

describe("ServerClock", () => {
  it.each([
    ["10 minutes fast", -10 * 60_000],
    ["10 minutes slow", 10 * 60_000],
    ["an hour fast", -3_600_000],
    ["an hour slow", 3_600_000],
    ["right", 0],
  ])("learns the skew of a local clock %s to within a second, and keeps it steady", (_name, skew) => {
    const clock = new ServerClock(() => T0);
    const errors: number[] = [];
    const seen = new Set<number>();
    // Responses with 40 ms round trips at irregular instants: each bounds the skew by ~1 s.
    for (let i = 0; i < 20; i++) {
      const sent = T0 + i * 1337 + ((i * 211) % 1000);
      const received = sent + 40;
      const serverAt = sent + 20 + skew;
      clock.observe(httpDate(serverAt), sent, received);
      errors.push(Math.abs(clock.skewMs - skew));
      seen.add(clock.skewMs);
    }
    expect(Math.max(...errors)).toBeLessThanOrEqual(520);
    // Narrowing bounds never move it by less than Date's resolution: one value, never stepping back.
    expect(seen.size).toBe(1);
    // Clocks that agree within Date's resolution keep a skew of exactly 0.
    if (skew === 0) expect(clock.skewMs).toBe(0);
  });

  it("a stepped clock replaces what was learned", () => {
    const clock = new ServerClock();
    clock.observe(httpDate(T0 + 600_000), T0, T0 + 10);
    expect(Math.abs(clock.skewMs - 600_000)).toBeLessThanOrEqual(1000);
    // The local clock was corrected: now it agrees with the server.
    clock.observe(httpDate(T0 + 5000), T0 + 5000, T0 + 5010);
    expect(Math.abs(clock.skewMs)).toBeLessThanOrEqual(1000);
  });

  it.each([
    ["missing", undefined],
    ["empty", ""],
    ["not a date", "yesterday"],
    ["a date in another zone", "Mon, 23 Nov 2026 12:00:00 CET"],
    ["two days ahead", httpDate(T0 + 2 * 86_400_000)],
    ["the epoch", httpDate(0)],
    ["just past the bound", httpDate(T0 + MAX_PLAUSIBLE_SKEW_MS + 2000)],
  ])("a %s Date changes nothing", (_name, date) => {
    const clock = new ServerClock(() => T0);
    expect(clock.observe(date, T0, T0 + 10)).toBe(false);
    expect(clock.skewMs).toBe(0);
    expect(clock.now()).toBe(T0);
  });

  it("a response slower than 30 s changes nothing, nor one received before it was sent", () => {
    const clock = new ServerClock();
    expect(clock.observe(httpDate(T0 + 600_000), T0, T0 + MAX_ROUND_TRIP_MS + 1)).toBe(false);
    expect(clock.observe(httpDate(T0 + 600_000), T0, T0 - 1)).toBe(false);
    expect(clock.skewMs).toBe(0);
  });

  it("now() is local time plus the skew", () => {
    let local = T0;
    const clock = new ServerClock(() => local);
    clock.observe(httpDate(T0 - 3_600_000), T0, T0 + 10);
    local += 1000;
    expect(Math.abs(clock.now() - (T0 + 1000 - 3_600_000))).toBeLessThanOrEqual(1000);
  });
});
