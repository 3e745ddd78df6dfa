/**
 * Durations use a monotonic clock: a step of the system clock does not
 * move the limiter's quiet period, the sign-in cool-down or the call's deadline. Wall time is kept
 * for what means wall time (token expiry, HTTP dates).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAudienceClient } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json } from "../support/recording-server.ts";

let api: FakeApi;
afterEach(async () => {
  vi.restoreAllMocks();
  await api?.close();
});

const credentials = { username: "ops@acme.test", password: "pw-clock-secret" };
const HOUR = 3_600_000;

/**
 * A wall clock that can step (as NTP makes it), installed before the client is made so that any
 * clock the client captures is this one. `step(ms)` moves it from then on.
 */
function steppingWallClock(): { step: (offset: number) => void } {
  const real = Date.now.bind(Date);
  let offset = 0;
  vi.spyOn(Date, "now").mockImplementation(() => real() + offset);
  return {
    step: (ms) => {
      offset = ms;
    },
  };
}

describe("a wall-clock step moves no duration", () => {
  it("the concurrency quiet period ends on time after the clock steps back an hour", async () => {
    api = await startFakeApi();
    let first = true;
    api.route((_req, res) => {
      if (first) {
        first = false;
        return json(res, 429, {}, { "retry-after": "0" });
      }
      json(res, 200, {});
    });
    const clock = steppingWallClock();
    const client = createAudienceClient({ baseUrl: api.url, credentials, rateLimitQuietPeriodMs: 100 });
    await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    expect(client.concurrency().limit).toBe(4);
    clock.step(-HOUR);
    await new Promise((r) => setTimeout(r, 150));
    expect(client.concurrency().limit).toBe(8); // stayed at 4 for the hour before
  });

  it.each([
    ["back", -HOUR],
    ["forward", HOUR],
  ])("the call's deadline holds when the clock steps %s an hour", async (_d, offset) => {
    api = await startFakeApi();
    const clock = steppingWallClock();
    let n = 0;
    api.route((_req, res) => {
      if (++n === 1) clock.step(offset);
      json(res, 503, {});
    });
    const client = createAudienceClient({
      baseUrl: api.url,
      credentials,
      retry: { deadlineMs: 400, baseDelayMs: 100, maxDelayMs: 100 },
    });
    const start = performance.now();
    const outcome = await client
      .GET("/events/{eid}", { params: { path: { eid: "e1" } } })
      .then((r) => r.response.status)
      .catch((e: unknown) => (e as Error).name);
    // The last 503 (attempts or the next wait ran out) or the deadline, whichever came first.
    expect([503, "TimeoutError"]).toContain(outcome);
    const ms = performance.now() - start;
    expect(ms).toBeLessThan(1_000);
    expect(n).toBeGreaterThanOrEqual(2); // retried within the deadline: a step forward did not end it at once
  });
});
