/**
 * The rate-state watch (transport/rate-state-watch.ts, loaded on the first response of a client
 * given `onRateStateChange`) that cannot be loaded once — a chunk the deployment no longer serves,
 * a page offline for a moment: the calls are unaffected (the watch only observes), and the watch is
 * not lost for the client's life: a later response tries the load again and reports the state.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAudienceClient, type RateState } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json } from "../support/recording-server.ts";

const loads = vi.hoisted(() => ({ tried: 0, fail: true }));
vi.mock("../../src/transport/rate-state-watch.ts", async (importOriginal) => {
  loads.tried += 1;
  if (loads.fail) throw new Error("chunk not served");
  return importOriginal();
});

let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const until = async (done: () => boolean) => {
  for (let i = 0; i < 1000 && !done(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe("a rate-state watch that cannot be loaded", () => {
  it("calls succeed; a later response loads it again and the state is reported", async () => {
    api = await startFakeApi();
    let status = 429;
    api.route((_req, res) => json(res, status, {}, { "retry-after": "0" }));
    const seen: RateState[] = [];
    const warnings: string[] = [];
    const client = createAudienceClient({
      baseUrl: api.url,
      partnerId: "p1",
      session: { accessToken: "at-watch-unloadable" },
      retry: { maxAttempts: 1 },
      onRateStateChange: (state) => seen.push(state),
      logger: { warn: (message, details) => warnings.push(`${message} ${JSON.stringify(details ?? {})}`) },
    });
    const get = () => client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    // Three responses while the load fails: one warning for the one failed load.
    for (const r of await Promise.all([get(), get(), get()])) expect(r.response.status).toBe(429);
    await until(() => warnings.length > 0);
    // A later response while the chunk is still away tries again, and says nothing more.
    const tried = loads.tried;
    expect((await get()).response.status).toBe(429);
    await until(() => loads.tried > tried);
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual([]);
    loads.fail = false;
    status = 200;
    expect((await get()).response.status).toBe(200);
    await until(() => seen.length > 0);
    // The 429 before is not lost: its reduced cap is the state the watch reports first.
    expect(seen[0]).toMatchObject({ partnerId: "p1", concurrencyLimit: 4 });
    expect(loads.tried).toBeGreaterThanOrEqual(2);
    expect(warnings.filter((w) => w.includes("the rate-state watch could not be loaded"))).toHaveLength(1);
    expect(warnings.filter((w) => w.includes("at-watch-unloadable"))).toEqual([]);
  });
});
