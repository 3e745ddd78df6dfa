/**
 * Errors that finish the story, through the public client against a fake API: every support
 * report names the partner and the environment, sent or not (Section 7); a server's refusal keeps
 * its status, code and body whatever class it becomes; one cause, one class on every path (a raw
 * call, `unwrap`, a setup handle); 400, 409 and 422 have classes of their own under ApiError.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  ApiError,
  type AudienceError,
  BadRequestError,
  ConflictError,
  countUnreadMessages,
  createAudienceClient,
  createCampaign,
  createEventSeries,
  getOptimisationStatus,
  getPartners,
  ingestExcel,
  ingestTransactionSummary,
  listAvailableEventsForSeries,
  listEventCampaigns,
  listEvents,
  readBenchmark,
  readPrediction,
  SetupStateError,
  setClientCampaignStatus,
  setOptimisationStatus,
  UnprocessableEntityError,
  unwrap,
  uploadMedia,
  ValidationError,
  waitForClientCampaignStatusTask,
  watchAdPlatformConnection,
} from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { routeSetupApi, SETUP_DRAFT } from "../support/fake-setup-api.ts";
import { json } from "../support/recording-server.ts";

let api: FakeApi;
afterEach(() => api?.close());
const credentials = { username: "u", password: "pw-story" };
const draft = SETUP_DRAFT;
const make = (extra: Record<string, unknown> = {}) =>
  createAudienceClient({ baseUrl: api.url, credentials, retry: { baseDelayMs: 1, maxDelayMs: 2 }, ...extra });
const environment = () => {
  const u = new URL(api.url);
  return `${u.origin}${u.pathname}`;
};
const caught = async (p: Promise<unknown> | (() => unknown)): Promise<AudienceError> => {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (error) {
    return error as AudienceError;
  }
  throw new Error("expected an error");
};

function expectReportNames(error: AudienceError, partner: string): void {
  expect(error.partnerId).toBe(partner);
  expect(error.environment).toBe(environment());
  const report = error.supportReport();
  expect(report).toContain(`partner id:   ${partner}`);
  expect(report).toContain(`environment:  ${environment()}`);
  expect(report).not.toContain("environment:  ?");
}

describe("a report of an error refused before sending names the partner and the environment", () => {
  it("a ValidationError of a raw call, the partner given as an option", async () => {
    api = await startFakeApi();
    const client = make({ partnerId: "partner-id-acme" });
    const error = await caught(client.GET("/events/{eid}", { params: { path: { eid: ".." } } }));
    expect(error).toBeInstanceOf(ValidationError);
    expectReportNames(error, "partner-id-acme");
    expect(api.calls()).toHaveLength(0);
  });

  it("a ValidationError after the partner was learned from the sign-in (groups claim)", async () => {
    api = await startFakeApi();
    const client = make();
    await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    expect(client.partnerId()).toBe("partner-id-acme");
    const error = await caught(client.GET("/events/", { params: { query: { limit: 10_000 } } }));
    expect(error).toBeInstanceOf(ValidationError);
    expectReportNames(error, "partner-id-acme");
  });

  it("before any sign-in, with no partner option: the environment, and the partner said to be not known yet", async () => {
    api = await startFakeApi();
    const error = await caught(make().GET("/events/{eid}", { params: { path: { eid: ".." } } }));
    expect(error.environment).toBe(environment());
    expect(error.supportReport()).toContain(`environment:  ${environment()}`);
    expect(error.supportReport()).toMatch(/partner id: {3}\(not known yet/);
  });

  it("a known-state SetupStateError, through the raw call and through the setup handle", async () => {
    api = await startFakeApi();
    routeSetupApi(api);
    const client = make({ partnerId: "partner-id-acme" });
    const setup = client.setupProcess("absent");
    await setup.load();
    expect(setup.state).toBe("none");
    const raw = await caught(client.POST("/setup_processes/{eid}/boost", { params: { path: { eid: "absent" } } }));
    expect(raw).toBeInstanceOf(SetupStateError);
    expectReportNames(raw, "partner-id-acme");
    const handle = await caught(setup.publish());
    expect(handle).toBeInstanceOf(SetupStateError);
    expectReportNames(handle, "partner-id-acme");
  });

  it("a helper's and a handle's input refused before any call", async () => {
    api = await startFakeApi();
    const client = make({ partnerId: "partner-id-acme" });
    const list = await caught(async () => {
      for await (const _ of listEvents(client, { limit: -1 })) break;
    });
    expect(list).toBeInstanceOf(ValidationError);
    expectReportNames(list, "partner-id-acme");
    const handle = await caught(() => client.setupProcess(".."));
    expect(handle).toBeInstanceOf(ValidationError);
    expectReportNames(handle, "partner-id-acme");
  });
});

describe("every helper's refusal before sending names the partner and the environment", () => {
  type Client = ReturnType<typeof make>;
  const late = { deadlineMs: -1 };
  const refusals: Record<string, (client: Client) => Promise<unknown>> = {
    "createCampaign: deadlineMs": (c) => createCampaign(c, {}, late),
    "setClientCampaignStatus: deadlineMs": (c) => setClientCampaignStatus(c, "e1", {}, late),
    "waitForClientCampaignStatusTask: no PUT sent": (c) => waitForClientCampaignStatusTask(c, "e1"),
    "waitForClientCampaignStatusTask: deadlineMs": (c) => waitForClientCampaignStatusTask(c, "e1", late),
    "watchAdPlatformConnection: deadlineMs": (c) => watchAdPlatformConnection(c, late),
    "watchAdPlatformConnection: terminalStates": (c) =>
      watchAdPlatformConnection(c, { terminalStates: "DONE" as never }),
    "createEventSeries: deadlineMs": (c) => createEventSeries(c, "e1", {}, late),
    "listAvailableEventsForSeries: deadlineMs": (c) => listAvailableEventsForSeries(c, "e1", late),
    "getOptimisationStatus: which": (c) => getOptimisationStatus(c, "e1", "neither" as never),
    "setOptimisationStatus: which": (c) => setOptimisationStatus(c, "e1", "neither" as never, {}),
    "readBenchmark: unit": (c) => readBenchmark(c, "e1", { type: "capacity", unit: "permille" as never }),
    "readPrediction: unit": (c) => readPrediction(c, "e1", { type: "capacity", unit: "permille" as never }),
    "ingestTransactionSummary: body": (c) => ingestTransactionSummary(c, { eid: 7 } as never),
    "ingestTransactionSummary: deadlineMs": (c) => ingestTransactionSummary(c, { eid: 7 } as never, late),
    "getPartners: deadlineMs": (c) => getPartners(c, late),
    "countUnreadMessages: deadlineMs": (c) => countUnreadMessages(c, late),
    "ingestExcel: not a workbook": (c) => ingestExcel(c, "e1", new Uint8Array([1, 2, 3])),
    "ingestExcel: deadlineMs": (c) => ingestExcel(c, "e1", new Uint8Array([1, 2, 3]), late),
    "uploadMedia: empty file": (c) => uploadMedia(c, new Uint8Array(0), { filename: "a.png" }),
    "uploadMedia: file name": (c) => uploadMedia(c, new Uint8Array([1]), { filename: 'a"b' }),
    "setup handle: autosave of a draft with a wrong field": (c) =>
      c.setupProcess("e1").autosave({ ...draft, total_budget: "a lot" } as never),
    "setup handle: flush with deadlineMs": (c) => c.setupProcess("e1").flush(late),
    "setup handle: load with deadlineMs": (c) => c.setupProcess("e1").load(late),
    "setup handle: create with deadlineMs": (c) => c.setupProcess("e1").create(draft, late),
    "setup handle: publish with deadlineMs": (c) => c.setupProcess("e1").publish(late),
    "setup handle: cancel with deadlineMs": (c) => c.setupProcess("e1").cancel(late),
    "setup handle: create with a wrong field": (c) => c.setupProcess("e1").create({ ...draft, goal: 7 } as never),
    "listEventCampaigns: limit": async (c) => {
      for await (const _ of listEventCampaigns(c, "e1", { limit: 0 })) break;
    },
  };
  for (const [name, refuse] of Object.entries(refusals)) {
    it(name, async () => {
      api = await startFakeApi();
      const client = make({ partnerId: "partner-id-acme" });
      const error = await caught(() => refuse(client));
      expect(error).toBeInstanceOf(ValidationError);
      expectReportNames(error, "partner-id-acme");
      expect(api.requests).toEqual([]); // refused before anything was sent, the sign-in included
    });
  }
});

describe("a server's refusal keeps its status, code and body whatever class it becomes", () => {
  const published = { code: "error.setup.published" };

  it("a PUT rejected after a publish: the same SetupStateError from the handle and from unwrap, with the server's code and body", async () => {
    api = await startFakeApi();
    const store = routeSetupApi(api);
    store.drafts.set("e9", { ...draft });
    store.published.add("e9"); // published elsewhere: this client has not seen it
    const client = make({ partnerId: "partner-id-acme" });

    const raw = await client.PUT("/setup_processes/{eid}", { params: { path: { eid: "e9" } }, body: draft });
    // a raw call that was answered resolves, as openapi-fetch's contract says
    expect(raw.response.status).toBe(409);
    expect(raw.error).toEqual(published);
    const unwrapped = await caught(() => unwrap(raw));
    const handle = await caught(make({ partnerId: "partner-id-acme" }).setupProcess("e9").update(draft));
    for (const error of [unwrapped, handle]) {
      expect(error).toBeInstanceOf(SetupStateError);
      expect(error).toMatchObject({
        status: 409,
        code: "error.setup.published",
        body: published,
        requestId: "req-put-409",
        eid: "e9",
        state: "published",
      });
      expect((error as SetupStateError).headers?.["x-request-id"]).toBe("req-put-409");
      expectReportNames(error, "partner-id-acme");
      expect(error.supportReport()).toContain("HTTP 409 error.setup.published");
    }
    // the raw call taught the client: the next PUT is refused before sending, as the same class
    const sent = api.calls().length;
    const refused = await caught(
      client.PUT("/setup_processes/{eid}", { params: { path: { eid: "e9" } }, body: draft }),
    );
    expect(refused).toBeInstanceOf(SetupStateError);
    expect(refused).toMatchObject({ state: "published", status: undefined, code: undefined });
    expect(api.calls().length).toBe(sent);
  });

  it("the same refusal on the boost and on DELETE: a SetupStateError with the server's code, as on the PUT", async () => {
    api = await startFakeApi();
    api.route((_req, res) => json(res, 409, published, { "x-request-id": "req-409" }));
    const client = make({ partnerId: "partner-id-acme" });
    const boost = await caught(
      (async () => unwrap(await client.POST("/setup_processes/{eid}/boost", { params: { path: { eid: "b1" } } })))(),
    );
    const cancel = await caught(make().setupProcess("b2").cancel());
    for (const error of [boost, cancel]) {
      expect(error).toBeInstanceOf(SetupStateError);
      expect(error).toMatchObject({ status: 409, code: "error.setup.published", body: published, state: "published" });
    }
  });

  it("a 409 on a setup call without evidence of publication stays a ConflictError (an ApiError) with its code", async () => {
    api = await startFakeApi();
    api.route((_req, res) => json(res, 409, { code: "error.conflict" }));
    const error = await caught(make().setupProcess("c1").update(draft));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).not.toBeInstanceOf(SetupStateError);
    expect(error).toMatchObject({ status: 409, code: "error.conflict", name: "ConflictError" });
  });
});

describe("400, 409 and 422 have classes of their own under ApiError", () => {
  it.each([
    [400, BadRequestError, "BadRequestError"],
    [409, ConflictError, "ConflictError"],
    [422, UnprocessableEntityError, "UnprocessableEntityError"],
  ])("%i: its class, an ApiError, with status, code and body", async (status, type, name) => {
    api = await startFakeApi();
    const body = { code: `error.status.${status}`, detail: "why" };
    api.route((_req, res) => json(res, status, body, { "x-request-id": `req-${status}` }));
    const error = await caught(
      (async () => unwrap(await make().GET("/events/{eid}", { params: { path: { eid: "e1" } } })))(),
    );
    expect(error).toBeInstanceOf(type);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ name, status, code: body.code, body, requestId: `req-${status}` });
  });
});
