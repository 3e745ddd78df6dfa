/**
 * The drift check (drift/check-drift.ts, loaded by drift-watch.ts on the first sampled response)
 * that cannot be loaded once — a chunk the deployment no longer serves, a page offline for a
 * moment: the calls are unaffected (a drift check never fails a call), and the check is not lost
 * for the client's life: a later response tries the load again, and a response that was the first
 * of its kind but could not be checked leaves that kind unchecked, so the next one is checked.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAudienceClient, type DriftReport } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json } from "../support/recording-server.ts";

const loads = vi.hoisted(() => ({ tried: 0, fail: true }));
vi.mock("../../src/drift/check-drift.ts", async (importOriginal) => {
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

describe("a drift check that cannot be loaded", () => {
  it("calls succeed; a later response loads it again and the drift is reported", async () => {
    api = await startFakeApi();
    // An event answered as an array: drift from the description's object.
    api.route((_req, res) => json(res, 200, [1, 2]));
    const reports: DriftReport[] = [];
    const warnings: string[] = [];
    const client = createAudienceClient({
      baseUrl: api.url,
      partnerId: "p1",
      session: { accessToken: "at-drift-unloadable" },
      onDrift: (report) => reports.push(report),
      driftSampleRate: 0, // only the first response of each kind is checked
      logger: { warn: (message, details) => warnings.push(`${message} ${JSON.stringify(details ?? {})}`) },
    });
    const get = () => client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    // Three responses while the load fails: one warning for the one failed load.
    for (const r of await Promise.all([get(), get(), get()])) expect(r.response.status).toBe(200);
    await until(() => loads.tried > 0);
    await new Promise((r) => setTimeout(r, 20));
    // A later response while the chunk is still away tries again, and says nothing more.
    const tried = loads.tried;
    expect((await get()).response.status).toBe(200);
    await until(() => loads.tried > tried);
    await new Promise((r) => setTimeout(r, 20));
    expect(reports).toEqual([]);
    loads.fail = false;
    expect((await get()).response.status).toBe(200);
    await until(() => reports.length > 0);
    expect(reports.map((r) => r.operation)).toEqual(["GET /events/{eid}"]);
    expect(loads.tried).toBeGreaterThanOrEqual(2);
    expect(warnings.filter((w) => w.includes("the drift check could not be loaded"))).toHaveLength(1);
    expect(warnings.filter((w) => w.includes("at-drift-unloadable"))).toEqual([]);
  });
});
