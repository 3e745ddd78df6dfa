import { afterEach, describe, expect, it } from "vitest";
import { createAudienceClient, SetupStateError, ValidationError } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { routeSetupApi } from "../support/fake-setup-api.ts";
import { json } from "../support/recording-server.ts";

let api: FakeApi;
afterEach(() => api?.close());
const credentials = { username: "u", password: "pw-setup" };
const draft = {
  goal: "UTILIZATION" as const,
  total_budget: 1000,
  start_date: "2027-03-01",
  end_date: "2027-03-31",
  tc_run_id: 7,
};
const make = (extra: Record<string, unknown> = {}) =>
  createAudienceClient(
    { baseUrl: api.url, credentials, adPlatform: "meta", retry: { baseDelayMs: 1, maxDelayMs: 2 }, ...extra },
    { autosaveDebounceMs: 10 },
  );

describe("setup-state guards (Section 3)", () => {
  it("learns none from a 404, draft from a create, published from a boost", async () => {
    api = await startFakeApi();
    routeSetupApi(api);
    const client = make();
    const setup = client.setupProcess("e1");
    expect(setup.state).toBe("unknown");
    expect(await setup.load()).toBeUndefined();
    expect(setup.state).toBe("none");
    await setup.create(draft);
    expect(setup.state).toBe("draft");
    const published = await setup.publish();
    expect(setup.state).toBe("published");
    expect(published).toMatchObject({
      taskId: "boost-e1",
      status: 201,
      requestId: "req-boost",
      connectionChecked: true,
      connection: { connected: true, platform: "meta" },
    });
  });

  it("refuses, with nothing sent: PUT after publish, campaigns_setup on a draft, boost and DELETE when absent", async () => {
    api = await startFakeApi();
    routeSetupApi(api);
    const client = make();
    const absent = client.setupProcess("absent");
    await absent.load();
    const sent = () => api.calls().length;
    const before = sent();
    await expect(absent.publish()).rejects.toBeInstanceOf(SetupStateError);
    await expect(absent.cancel()).rejects.toBeInstanceOf(SetupStateError);
    await expect(
      client.POST("/campaigns_setup", { body: { eid: "absent", tc: "x", tc_run_id: 1 } }),
    ).rejects.toBeInstanceOf(SetupStateError);

    const d = client.setupProcess("d1");
    await d.create(draft);
    const afterCreate = sent();
    await expect(d.editPublishedCluster({ tc: "Indie & Folk", tc_run_id: 7 })).rejects.toThrow(/unpublished draft/);
    await d.publish();
    const afterPublish = sent();
    const error = await client
      .PUT("/setup_processes/{eid}", { params: { path: { eid: "d1" } }, body: draft })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SetupStateError);
    expect((error as Error).message).toMatch(/POST \/campaigns_setup/);
    expect(sent()).toBe(afterPublish);
    expect(afterCreate - before).toBe(1);
    // the client stays usable: the published edit goes through, tc sent as given
    await expect(d.editPublishedCluster({ tc: "Indie & Folk", tc_run_id: 7 })).resolves.toMatchObject({
      edited: { eid: "d1", tc: "Indie & Folk" },
    });
  });

  it("unknown state lets the PUT through; its rejection after publish maps to SetupStateError", async () => {
    api = await startFakeApi();
    const store = routeSetupApi(api);
    store.drafts.set("e9", { ...draft });
    store.published.add("e9"); // published elsewhere (another process)
    const client = make();
    const error = await client
      .setupProcess("e9")
      .update(draft)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SetupStateError);
    expect(error).toMatchObject({ status: 409, requestId: "req-put-409", eid: "e9" });
  });

  it("a published form seen in a response marks the setup published", async () => {
    api = await startFakeApi();
    const store = routeSetupApi(api);
    store.drafts.set("e2", { ...draft });
    store.published.add("e2");
    const client = make();
    await client.setupProcess("e2").load();
    expect(client.setupProcess("e2").state).toBe("published");
  });

  it("validates payloads before sending: each issue by field", async () => {
    api = await startFakeApi();
    routeSetupApi(api);
    const client = make();
    const error = await client
      .setupProcess("e1")
      .create({
        goal: "MAXIMUM" as never,
        total_budget: -5,
        start_date: "2026-02-30",
        end_date: "2026-01-01",
        tc_run_id: 1.5,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    const fields = (error as ValidationError).issues.map((i) => i.field).sort();
    expect(fields).toEqual(["body.goal", "body.start_date", "body.tc_run_id", "body.total_budget"]);
    const reversed = await client
      .setupProcess("e1")
      .create({ ...draft, start_date: "2027-04-01" })
      .catch((e: unknown) => e);
    expect((reversed as ValidationError).issues).toEqual([
      { field: "body.end_date", message: "must not be before start_date" },
    ]);
    expect(api.calls()).toHaveLength(0);
    expect(() => client.setupProcess("..")).toThrow(ValidationError);
  });
});

describe("autosave through the handle", () => {
  it("coalesces edits, never overlaps PUTs, and stores the last edit even when latencies invert", async () => {
    api = await startFakeApi();
    let n = 0;
    const store = routeSetupApi(api, { putDelayMs: () => [60, 5, 30, 1][n++ % 4] as number });
    const client = make();
    const setup = client.setupProcess("auto");
    await setup.create(draft);
    api.resetStats();
    for (let i = 1; i <= 12; i++) {
      void setup.autosave({ ...draft, total_budget: 1000 + i });
      await new Promise((r) => setTimeout(r, i % 3 === 0 ? 25 : 2));
    }
    await setup.flush();
    expect(store.drafts.get("auto")?.total_budget).toBe(1012);
    expect(api.maxInFlight()).toBe(1);
    expect(api.calls().length).toBeLessThan(12);
  });

  it("keeps the latest edit pending through a failure and stores it on the next flush", async () => {
    api = await startFakeApi();
    const store = routeSetupApi(api);
    const client = make({ retry: { maxAttempts: 1 } });
    const setup = client.setupProcess("flaky");
    await setup.create(draft);
    let failing = true; // PUTs fail until the "network" is back
    api.route(async (req, res) => {
      if (req.method === "PUT" && failing) return json(res, 503, {});
      store.drafts.set("flaky", JSON.parse(req.body));
      return json(res, 200, {});
    });
    const edit = setup.autosave({ ...draft, total_budget: 2222 });
    await expect(setup.flush()).rejects.toBeTruthy();
    await expect(edit).rejects.toBeTruthy();
    failing = false;
    await setup.flush();
    expect(store.drafts.get("flaky")?.total_budget).toBe(2222);
  });
});
