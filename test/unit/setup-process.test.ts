import { afterEach, describe, expect, it } from "vitest";
import { createClientWithSeams } from "../../src/create-client.ts";
import { ApiError, ServerError, SetupStateError, ValidationError } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { routeSetupApi, SETUP_DRAFT } from "../support/fake-setup-api.ts";
import { json } from "../support/recording-server.ts";

let api: FakeApi;
afterEach(() => api?.close());
const credentials = { username: "u", password: "pw-setup" };
const draft = SETUP_DRAFT;
const make = (extra: Record<string, unknown> = {}) =>
  createClientWithSeams(
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
    // The rejected call's whole context is carried, its attempts and environment included.
    const cause = (error as SetupStateError).cause as ApiError;
    expect(cause).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      method: "PUT",
      path: cause.path,
      partnerId: cause.partnerId,
      environment: cause.environment,
      attempts: cause.attempts,
      request: cause.request,
    });
    expect((error as SetupStateError).attempts).toBeGreaterThan(0);
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

/** Workflow fidelity, here and in the three blocks after: the draft never ends older than the last edit. */
describe("one ordered queue per setup", () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it("autosave(100) then update(200) stores 200: the debounced 100 never lands after it", async () => {
    api = await startFakeApi();
    const store = routeSetupApi(api);
    const setup = make().setupProcess("order-1");
    await setup.create(draft);
    const saved = setup.autosave({ ...draft, total_budget: 100 });
    await expect(setup.update({ ...draft, total_budget: 200 })).resolves.toMatchObject({ total_budget: 200 });
    await saved; // the superseded autosave resolves once a later edit is stored
    await sleep(40); // past the 10 ms debounce: nothing else may be sent
    await setup.flush();
    expect(store.drafts.get("order-1")?.total_budget).toBe(200);
    expect(
      api
        .calls()
        .filter((r) => r.method === "PUT")
        .map((r) => JSON.parse(r.body).total_budget),
    ).toEqual([200]);
  });

  it("update(300) during a slow PUT of 100 waits for it: one PUT in flight, 300 stored last", async () => {
    api = await startFakeApi();
    const delays = [120, 0];
    const store = routeSetupApi(api, { putDelayMs: () => delays.shift() ?? 0 });
    const setup = make().setupProcess("order-2");
    await setup.create(draft);
    api.resetStats();
    const first = setup.update({ ...draft, total_budget: 100 });
    await sleep(20); // the PUT of 100 is in flight
    const second = setup.update({ ...draft, total_budget: 300 });
    await Promise.all([first, second]);
    expect(store.drafts.get("order-2")?.total_budget).toBe(300);
    expect(api.maxInFlight()).toBe(1);
  });

  it("any mix of autosave, update and flush ends with the last edit stored, one PUT in flight", async () => {
    api = await startFakeApi();
    let seed = 12;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const store = routeSetupApi(api, { putDelayMs: () => Math.floor(random() * 30) });
    const setup = make().setupProcess("order-mix");
    await setup.create(draft);
    api.resetStats();
    const pending: Array<Promise<unknown>> = [];
    for (let i = 1; i <= 30; i++) {
      const edit = { ...draft, total_budget: 2000 + i };
      const pick = random();
      if (pick < 0.5) pending.push(setup.autosave(edit));
      else if (pick < 0.85) pending.push(setup.update(edit));
      else pending.push(setup.autosave(edit), setup.flush());
      await sleep(Math.floor(random() * 15));
    }
    await Promise.all(pending);
    await setup.flush();
    expect(store.drafts.get("order-mix")?.total_budget).toBe(2030);
    expect(api.maxInFlight()).toBe(1);
  });

  it("edits of one published cluster are ordered too: a slow first POST never lands after the second", async () => {
    api = await startFakeApi();
    const store = routeSetupApi(api);
    const stored = new Map<string, unknown>();
    const setup = make().setupProcess("pub-1");
    await setup.create(draft);
    await setup.publish();
    let n = 0;
    api.route(async (req, res) => {
      if (req.path !== "/campaigns_setup") return json(res, 404, {});
      const body = JSON.parse(req.body);
      if (n++ === 0) await sleep(120);
      stored.set(`${body.tc}|${body.tc_run_id}`, body.targeting);
      return json(res, 200, { edited: body });
    });
    api.resetStats();
    const first = setup.editPublishedCluster({ tc: "Indie & Folk", tc_run_id: 7, targeting: [{ v: 1 }] });
    await sleep(20);
    const second = setup.editPublishedCluster({ tc: "Indie & Folk", tc_run_id: 7, targeting: [{ v: 2 }] });
    await Promise.all([first, second]);
    expect(stored.get("Indie & Folk|7")).toEqual([{ v: 2 }]);
    expect(api.maxInFlight()).toBe(1);
    expect(store.published.has("pub-1")).toBe(true);
  });

  it("autosavePublishedCluster debounces a cluster's edits into one POST of the last", async () => {
    api = await startFakeApi();
    routeSetupApi(api);
    const setup = make().setupProcess("pub-2");
    await setup.create(draft);
    await setup.publish();
    api.resetStats();
    for (let v = 1; v <= 5; v++) void setup.autosavePublishedCluster({ tc: "Jazz", tc_run_id: 7, targeting: [{ v }] });
    await setup.flush();
    const posts = api.calls().filter((r) => r.path === "/campaigns_setup");
    expect(posts.map((r) => JSON.parse(r.body).targeting)).toEqual([[{ v: 5 }]]);
  });
});

describe("a rejected PUT is mapped by evidence", () => {
  it("a 400 field error on a known draft stays an ApiError with its code", async () => {
    api = await startFakeApi();
    routeSetupApi(api);
    const client = make();
    const setup = client.setupProcess("field-1");
    await setup.create(draft);
    api.route((_req, res) => json(res, 400, { code: "error.validation.total_budget" }, { "x-request-id": "req-400" }));
    const error = await setup.update(draft).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(SetupStateError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: "error.validation.total_budget", requestId: "req-400" });
    expect(setup.state).toBe("draft");
  });

  it("a 409 without evidence of publication on a setup of unknown state stays an ApiError", async () => {
    api = await startFakeApi();
    api.route((_req, res) => json(res, 409, { code: "error.conflict" }));
    const error = await make()
      .setupProcess("field-2")
      .update(draft)
      .catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(SetupStateError);
    expect(error).toMatchObject({ status: 409, code: "error.conflict" });
  });

  it("a rejection whose body shows the published form is a SetupStateError, and the state is learned", async () => {
    api = await startFakeApi();
    api.route((_req, res) => json(res, 400, { status: "PUBLISHED" }));
    const setup = make().setupProcess("field-3");
    const error = await setup.update(draft).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SetupStateError);
    expect(setup.state).toBe("published");
  });
});

describe("the check before repeating a create proves our own write", () => {
  it("someone else's draft found after a failed POST is not our create: the call fails and says so", async () => {
    api = await startFakeApi();
    const store = routeSetupApi(api);
    const theirs = { ...draft, total_budget: 999 };
    store.drafts.set("shared", theirs); // another user's draft, unknown to this client
    api.route((req, res) => {
      if (req.method === "POST") return json(res, 503, {}, { "x-request-id": "req-post-503" }); // not stored
      return json(res, 200, store.drafts.get("shared"));
    });
    const error = await make()
      .setupProcess("shared")
      .create(draft)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 503, mayHaveSucceeded: true });
    expect((error as Error).message).toMatch(/does not hold what this create sent/);
    expect(api.calls().filter((r) => r.method === "POST")).toHaveLength(1); // never repeated
    expect(store.drafts.get("shared")).toEqual(theirs);
  });

  it("our own draft found after a failed POST resolves as created", async () => {
    api = await startFakeApi();
    const store = routeSetupApi(api);
    api.route((req, res) => {
      if (req.method === "POST") {
        store.drafts.set("mine", JSON.parse(req.body));
        return json(res, 503, {});
      }
      return json(res, 200, { ...store.drafts.get("mine"), id: 41, created_at: "2027-01-01T00:00:00Z" });
    });
    await expect(make().setupProcess("mine").create(draft)).resolves.toMatchObject({ total_budget: 1000, id: 41 });
  });
});

describe("state guards cover every transition of the Section 3 table", () => {
  it("refuses update and autosave on a setup known to be absent, nothing sent; the client stays usable", async () => {
    api = await startFakeApi();
    routeSetupApi(api);
    const setup = make().setupProcess("none-1");
    await setup.load(); // 404: absent
    const sent = api.calls().length;
    await expect(setup.update(draft)).rejects.toThrow(SetupStateError);
    await expect(setup.update(draft)).rejects.toThrow(/create it first/);
    await expect(setup.autosave(draft)).rejects.toBeInstanceOf(SetupStateError);
    expect(api.calls().length).toBe(sent);
    await setup.create(draft);
    await setup.flush(); // the refused edits were not kept: nothing is sent for them later
    expect(api.calls().filter((r) => r.method === "PUT")).toHaveLength(0);
    await expect(setup.update({ ...draft, total_budget: 5 })).resolves.toMatchObject({ total_budget: 5 });
  });

  it("refuses cancel and a second publish on a setup known to be published, nothing sent", async () => {
    api = await startFakeApi();
    const store = routeSetupApi(api);
    const setup = make().setupProcess("pub-3");
    await setup.create(draft);
    await setup.publish();
    const sent = api.calls().length;
    await expect(setup.cancel()).rejects.toThrow(SetupStateError);
    await expect(setup.publish()).rejects.toThrow(/already published/);
    expect(api.calls().length).toBe(sent);
    expect(store.drafts.has("pub-3")).toBe(true);
  });
});

describe("SetupProcess methods take the helpers' trailing options", () => {
  it("an aborted signal sends nothing from load, create, publish or cancel", async () => {
    api = await startFakeApi();
    routeSetupApi(api);
    const setup = make().setupProcess("e1");
    const signal = AbortSignal.abort(new Error("stopped"));
    await expect(setup.load({ signal })).rejects.toThrow("stopped");
    await expect(setup.create(draft, { signal })).rejects.toThrow("stopped");
    await expect(setup.publish({ signal })).rejects.toThrow("stopped");
    await expect(setup.cancel({ signal })).rejects.toThrow("stopped");
    expect(api.calls()).toHaveLength(0);
  });

  it("deadlineMs ends a call the server is slow to answer, and priority low waits in the background lane", async () => {
    api = await startFakeApi();
    routeSetupApi(api);
    const client = make();
    const setup = client.setupProcess("e1");
    api.route((_req, res) => void setTimeout(() => json(res, 200, {}), 2_000));
    const started = performance.now();
    await expect(setup.load({ deadlineMs: 100 })).rejects.toMatchObject({ name: "TimeoutError" });
    expect(performance.now() - started).toBeLessThan(1_500);
    routeSetupApi(api);
    await expect(setup.load({ priority: "low" })).resolves.toBeUndefined();
  });
});
