/**
 * No call waits for a planned refresh. The refresh starts ahead of expiry in the
 * background (one for the client), calls keep the current token meanwhile; a failing background
 * refresh fails no call while the token is valid.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createAudienceClient } from "../../src/index.ts";
import { type SkewedApi, startSkewedApi } from "../support/skewed-api.ts";

const credentials = { username: "ops@example.com", password: "pw-background" };
let api: SkewedApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function steadyLoad(durationMs: number, client: ReturnType<typeof createAudienceClient>) {
  const latencies: number[] = [];
  const started = Date.now();
  let n = 0;
  const worker = async () => {
    while (Date.now() - started < durationMs) {
      const t = performance.now();
      const { error } = await client.GET("/events/{eid}", { params: { path: { eid: `e${n++}` } } });
      expect(error).toBeUndefined();
      latencies.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  await Promise.all([worker(), worker(), worker()]);
  return latencies;
}

describe("background refresh", () => {
  it("no call waits for a planned refresh across token lifetimes", async () => {
    // 3 s tokens refresh 1.5 s before expiry; each refresh takes 600 ms at the server, so a call
    // that waited for one would take 600 ms or more.
    api = await startSkewedApi({ lifetimeS: 3, refreshDelayMs: 600 });
    const client = createAudienceClient({ baseUrl: api.baseUrl, credentials });
    await client.GET("/events/{eid}", { params: { path: { eid: "warm" } } });
    const latencies = await steadyLoad(3500, client);
    expect(api.stats.refreshes).toBeGreaterThanOrEqual(1);
    expect(api.stats.expiredSent).toBe(0);
    expect(Math.max(...latencies)).toBeLessThan(450);
  }, 15_000);

  it("a failing background refresh fails no call while the token is valid, and is tried again", async () => {
    let failures = 2;
    api = await startSkewedApi({ lifetimeS: 3, refreshDelayMs: 0, failRefresh: () => failures-- > 0 });
    const client = createAudienceClient({
      baseUrl: api.baseUrl,
      credentials,
      retry: { maxAttempts: 1, baseDelayMs: 100, maxDelayMs: 200 },
    });
    const latencies = await steadyLoad(2800, client);
    expect(latencies.length).toBeGreaterThan(30);
    expect(api.stats.expiredSent).toBe(0);
    expect(api.stats.refreshes).toBeGreaterThanOrEqual(1); // a later try succeeded
  }, 15_000);
});
