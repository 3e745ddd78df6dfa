/**
 * Token expiry and HTTP-date Retry-After judged in server time. The server's
 * clock is off from the client's by ±10 min and ±1 h; tokens live 2 s (refresh margin: half of it).
 */
import { afterEach, describe, expect, it } from "vitest";
import { createAudienceClient } from "../../src/index.ts";
import { type SkewedApi, startSkewedApi } from "../support/skewed-api.ts";

const credentials = { username: "ops@example.com", password: 'p"w\\é-ops' };
const SKEWS: Array<[string, number]> = [
  ["in step", 0],
  ["10 min ahead", 10 * 60_000],
  ["10 min behind", -10 * 60_000],
  ["1 h ahead", 3_600_000],
  ["1 h behind", -3_600_000],
];
let api: SkewedApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

describe("a server clock off from the client's", () => {
  it.each(SKEWS)(
    "server %s: no expired token is sent, and about one refresh per half lifetime",
    async (_name, skewMs) => {
      api = await startSkewedApi({ skewMs, lifetimeS: 2 });
      const client = createAudienceClient({ baseUrl: api.baseUrl, credentials, retry: { maxRetryAfterMs: 5000 } });
      const started = Date.now();
      let calls = 0;
      while (Date.now() - started < 3000) {
        const { error } = await client.GET("/events/{eid}", { params: { path: { eid: `e${calls}` } } });
        expect(error).toBeUndefined();
        calls += 1;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(api.stats.expiredSent).toBe(0);
      // 3 s of calls with 2 s tokens refreshed 1 s before expiry: 3 refreshes, or 4 at a boundary.
      expect(api.stats.refreshes).toBeLessThanOrEqual(5);
      expect(api.stats.signIns).toBe(1);
      expect(calls).toBeGreaterThan(10);
    },
    15_000,
  );

  it.each(SKEWS)(
    "server %s: an HTTP-date Retry-After is waited for as the server meant it (within 1 s)",
    async (_name, skewMs) => {
      api = await startSkewedApi({ skewMs });
      const client = createAudienceClient({ baseUrl: api.baseUrl, credentials });
      await client.GET("/events/{eid}", { params: { path: { eid: "warm" } } }); // signs in; sees a Date
      const waited = api.rateLimitNext(2);
      const { error } = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
      expect(error).toBeUndefined();
      // The date has whole seconds: "2 s from now" means 1 to 2 s; waited within 1 s of that.
      const { waitedMs, meantMs } = await waited;
      expect(meantMs).toBeGreaterThan(1000);
      expect(Math.abs(waitedMs - meantMs)).toBeLessThanOrEqual(1000);
    },
    15_000,
  );
});
