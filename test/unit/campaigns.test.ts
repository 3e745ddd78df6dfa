/**
 * The query-string writes' polls (Section 8.5): a task poll belongs to the
 * PUT that started it, and a poll's own schedule governs its retries — a 503 inside a status poll
 * is not retried by the transport a few hundred ms later.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  createAudienceClient,
  setClientCampaignStatus,
  ValidationError,
  waitForClientCampaignStatusTask,
  watchAdPlatformConnection,
} from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json } from "../support/recording-server.ts";

let api: FakeApi;
afterEach(() => api?.close());
const credentials = { username: "u", password: "pw-polls" };
const make = () => createAudienceClient({ baseUrl: api.url, credentials, adPlatform: "meta" });

describe("task polls follow a PUT", () => {
  it("refuses an eid this client sent no client_campaign_status PUT for, with nothing sent", async () => {
    api = await startFakeApi();
    api.route((req, res) => json(res, 200, req.method === "PUT" ? { task_id: "t1" } : { status: "DONE" }));
    const client = make();
    const error = await waitForClientCampaignStatusTask(client, "e1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]).toMatchObject({ field: "eid" });
    expect((error as Error).message).toMatch(/client_campaign_status.*Section 8\.5/);
    expect(api.requests).toHaveLength(0); // not even a sign-in

    await setClientCampaignStatus(client, "e1", { status: "PAUSED" });
    await expect(waitForClientCampaignStatusTask(client, "e1")).resolves.toEqual({ status: "DONE" });
    await expect(waitForClientCampaignStatusTask(client, "e2")).rejects.toBeInstanceOf(ValidationError);
    // another client has sent no PUT: the task is not its own
    await expect(waitForClientCampaignStatusTask(make(), "e1")).rejects.toBeInstanceOf(ValidationError);
    expect(api.calls().map((r) => `${r.method} ${r.path}`)).toEqual([
      "PUT /events/e1/client_campaign_status",
      "GET /events/e1/client_campaign_status/task",
    ]);
  });
});

describe("a poll's own schedule governs its retries", () => {
  it("a 503 inside a status poll is retried after 3 s, not by the transport", async () => {
    api = await startFakeApi();
    let n = 0;
    api.route((_req, res) => (n++ === 0 ? json(res, 503, {}) : json(res, 200, { status: "CONNECTED" })));
    const body = await watchAdPlatformConnection(make(), { terminalStates: ["CONNECTED"], timeoutMs: 15_000 });
    expect(body).toEqual({ status: "CONNECTED" });
    const polls = api.calls();
    expect(polls).toHaveLength(2);
    // Date.now() has 1 ms resolution on both sides: at least 3 000 ms less that rounding.
    expect((polls[1]?.receivedAt ?? 0) - (polls[0]?.receivedAt ?? 0)).toBeGreaterThanOrEqual(2_999);
  }, 20_000);

  it("a 503 inside a task poll waits the task schedule (about 2 s), not the transport's 0.5 s", async () => {
    api = await startFakeApi();
    let n = 0;
    api.route((req, res) => {
      if (req.method === "PUT") return json(res, 200, {});
      return n++ === 0 ? json(res, 503, {}) : json(res, 200, { status: "DONE" });
    });
    const client = make();
    await setClientCampaignStatus(client, "e1", { status: "RUNNING" });
    await waitForClientCampaignStatusTask(client, "e1", { timeoutMs: 15_000 });
    const polls = api.calls().filter((r) => r.method === "GET");
    expect(polls).toHaveLength(2);
    expect((polls[1]?.receivedAt ?? 0) - (polls[0]?.receivedAt ?? 0)).toBeGreaterThanOrEqual(1_999);
  }, 20_000);

  it("gives up after the client's attempts of failed fetches in a row, with the last error", async () => {
    api = await startFakeApi();
    api.route((_req, res) => json(res, 404, { code: "error.not_found" }));
    // a 404 is final: one fetch, no wait
    await expect(watchAdPlatformConnection(make(), { timeoutMs: 15_000 })).rejects.toMatchObject({ status: 404 });
    expect(api.calls()).toHaveLength(1);
  });
});
