/**
 * The mock's state (Section 3, 5) and its log, through raw fetch and the client: setups are absent
 * until created, a draft until published; campaigns created by POST /campaigns/ are listed under
 * their event; sign-in accepts any user and its IdToken names the mock's partner; every answer
 * carries x-request-id and Date; requests() records what came, never a secret; reset() clears.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CREATE_CAMPAIGN_QUERY } from "../../src/assumptions.ts";
import { createAudienceClient, createCampaign, listEventCampaigns, unwrap } from "../../src/index.ts";
import { type MockApi, startMockApi } from "../../src/testing/index.ts";

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
}, 60_000);
afterAll(() => api?.close());
beforeEach(() => {
  api.useScenario("healthy");
  api.reset();
});

const headers = { authorization: "Bearer test-token", "x-preferred-partner-id": "partner-id-demo-tickets" };
const call = (method: string, path: string, body?: unknown) =>
  fetch(`${api.baseUrl}${path}`, {
    method,
    headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
const payload = {
  goal: "UTILIZATION" as const,
  total_budget: 1500,
  start_date: "2027-05-01",
  end_date: "2027-05-31",
  tc_run_id: 42,
};

describe("the setup life cycle (Section 3)", () => {
  it("absent (404) until POST, a draft that PUT edits, published by boost; then PUT is refused and POST /campaigns_setup works", async () => {
    expect((await call("GET", "/setup_processes/evt-1")).status).toBe(404);
    expect((await call("PUT", "/setup_processes/evt-1", payload)).status).toBe(404);
    expect((await call("POST", "/setup_processes/evt-1", payload)).status).toBe(201);
    const put = await call("PUT", "/setup_processes/evt-1", { ...payload, total_budget: 2000 });
    expect(put.status).toBe(200);
    expect(await (await call("GET", "/setup_processes/evt-1")).json()).toMatchObject({
      total_budget: 2000,
      status: "DRAFT",
    });
    const boost = await call("POST", "/setup_processes/evt-1/boost");
    expect(boost.status).toBe(201);
    expect(await boost.json()).toHaveProperty("task_id");
    expect(await (await call("GET", "/setup_processes/evt-1")).json()).toMatchObject({ status: "PUBLISHED" });
    expect((await call("PUT", "/setup_processes/evt-1", payload)).status).toBe(400);
    const edit = { eid: "evt-1", tc: "Indie fans", tc_run_id: 42 };
    expect((await call("POST", "/campaigns_setup", edit)).status).toBe(200);
    expect((await call("POST", "/campaigns_setup", { ...edit, eid: "evt-2" })).status).toBe(400);
  });

  it("the client's handle follows it: create, update, publish, and a refused PUT afterwards", async () => {
    const client = createAudienceClient({ baseUrl: api.baseUrl, credentials: api.credentials });
    const setup = client.setupProcess("evt-7");
    expect(await setup.load()).toBeUndefined();
    await setup.create(payload);
    await setup.update({ ...payload, total_budget: 1800 });
    const published = await setup.publish();
    expect(published.status).toBe(201);
    await expect(setup.update(payload)).rejects.toThrow(/published/);
  });

  it("a request Prism finds invalid keeps Prism's answer, and nothing is stored", async () => {
    const bad = await call("POST", "/setup_processes/evt-3", { goal: "NOT_A_GOAL" });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect((await call("GET", "/setup_processes/evt-3")).status).toBe(404);
  });
});

describe("campaigns created by POST /campaigns/", () => {
  it(`are listed under GET /events/{eid}/campaigns, read from the query's "${CREATE_CAMPAIGN_QUERY.eid}" and "${CREATE_CAMPAIGN_QUERY.name}" (src/assumptions.ts)`, async () => {
    const client = createAudienceClient({ baseUrl: api.baseUrl, credentials: api.credentials });
    expect(await collect(listEventCampaigns(client, "evt-5"))).toEqual([]);
    const created = (await createCampaign(client, { eid: "evt-5", name: "Spring push" })) as { id: string };
    const listed = await collect(listEventCampaigns(client, "evt-5"));
    expect(listed).toEqual([expect.objectContaining({ id: created.id, name: "Spring push" })]);
  });
});

describe("sign-in, refresh and the partner (Section 5)", () => {
  it("any username and password sign in; the IdToken names the partner the mock serves; the client picks it", async () => {
    const signIn = await fetch(`${api.baseUrl}/auth`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "someone", password: "anything" }),
    });
    const tokens = (await signIn.json()) as { AccessToken: string; IdToken: string; RefreshToken: string };
    const claims = JSON.parse(Buffer.from(tokens.IdToken.split(".")[1] ?? "", "base64url").toString());
    expect(claims.groups).toContain(api.partnerId);
    const access = JSON.parse(Buffer.from(tokens.AccessToken.split(".")[1] ?? "", "base64url").toString());
    expect(access.exp - access.iat).toBeGreaterThanOrEqual(3599); // Section 5.2: about an hour
    const client = createAudienceClient({ baseUrl: api.baseUrl, credentials: api.credentials });
    unwrap(await client.GET("/events/{eid}", { params: { path: { eid: "evt-1001" } } }));
    expect(api.requests().at(-1)?.partner).toBe(api.partnerId);
  });
});

describe("every answer and the log", () => {
  it("carries x-request-id and Date; requests() records method, path, query, partner, bearer, body, times, status and id — never a secret", async () => {
    const answers = [await call("GET", "/events/?page=1&limit=2"), await call("GET", "/events/evt-1001")];
    await fetch(`${api.baseUrl}/auth`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "u", password: "pa55-secret" }),
    });
    await fetch(`${api.baseUrl}/status/`);
    for (const a of answers) {
      expect(a.headers.get("x-request-id")).toMatch(/^mock-\d+$/);
      expect(Date.parse(a.headers.get("date") ?? "")).not.toBeNaN();
    }
    const log = api.requests();
    expect(log.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      "GET /events/ 200",
      "GET /events/evt-1001 200",
      "POST /auth 200",
      "GET /status/ 200",
    ]);
    expect(log[0]).toMatchObject({
      query: { page: ["1"], limit: ["2"] },
      partner: "partner-id-demo-tickets",
      bearer: true,
    });
    expect(log[0]?.requestId).toBe(answers[0]?.headers.get("x-request-id"));
    expect(log[2]?.body).toEqual({ username: "u", password: "[redacted]" });
    expect(JSON.stringify(log)).not.toMatch(/pa55-secret|test-token/);
    expect(log[3]).toMatchObject({ bearer: false, partner: undefined });
    for (const r of log) expect(r.endedAt).toBeGreaterThanOrEqual(r.startedAt);
  });

  it("reset() clears the state and the log, and request ids start again", async () => {
    await call("POST", "/setup_processes/evt-9", payload);
    api.reset();
    expect(api.requests()).toEqual([]);
    const again = await call("GET", "/setup_processes/evt-9");
    expect(again.status).toBe(404);
    expect(again.headers.get("x-request-id")).toBe("mock-000001");
  });
});
