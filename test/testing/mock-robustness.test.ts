/**
 * What docs/TESTING.md promises of the mock beyond the scenarios: it survives what a test may send
 * it (malformed request lines, chunked and huge bodies), its log holds no secret in any form and
 * hands out read-only copies, requests carry a tag and the partners of their token, its data is
 * realistic (N events, page 2, a forecast), and a five-attempt client completes every read of
 * server-errors under every seed.
 */
import { request } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAudienceClient, listEvents, readPrediction, unwrap } from "../../src/index.ts";
import { type MockApi, startMockApi } from "../../src/testing/index.ts";
import { echoForms, findSecret } from "../support/secret-forms.ts";

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi({ events: 130 });
}, 60_000);
afterAll(() => api?.close());
beforeEach(() => {
  api.useScenario("healthy");
  api.reset();
});

const port = () => Number(new URL(api.baseUrl).port);

/** Sends raw bytes and resolves with the answer's first line (or "" when the mock closed). */
function raw(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port(), "127.0.0.1", () => socket.end(bytes));
    let text = "";
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1");
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(text.split("\r\n")[0] ?? ""));
  });
}

const status = async () => (await fetch(`${api.baseUrl}/status/`)).status;

describe("it survives what a test may send it", () => {
  it.each([
    "GET http://a:99999/x HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET http://[::1/x HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET //x/../../y HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET * HTTP/1.1\r\nHost: a\r\n\r\n",
    "PATCH /api/v3/events/%E0%A4%A HTTP/1.1\r\nHost: a\r\n\r\n",
    "GET /api/v3/status/ HTTP/1.1\r\nHost: [bad\r\n\r\n",
  ])("%j is answered, and the mock goes on", async (line) => {
    expect(await raw(line)).toMatch(/^(HTTP\/1\.1 \d{3}|)/);
    expect(await status()).toBe(200);
  });
  it("a chunked body is read like any other", async () => {
    const answer = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${api.baseUrl}/setup_processes/evt-9`,
        {
          method: "POST",
          headers: { "content-type": "application/json", authorization: "Bearer t", "x-preferred-partner-id": "p" },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.write('{"goal":"UTILIZATION",');
      req.end('"total_budget":1000}'); // no content-length: Transfer-Encoding: chunked
    });
    expect(answer).toBe(201);
    expect(api.requests().at(-1)?.body).toEqual({ goal: "UTILIZATION", total_budget: 1000 });
  });
  it("a huge body is answered; the log keeps a note of it, not the body; the copies it hands out are read-only", async () => {
    const big = JSON.stringify({ goal: "UTILIZATION", notes: "x".repeat(20 * 1024 * 1024) });
    const res = await fetch(`${api.baseUrl}/setup_processes/evt-8?flag=a`, {
      method: "PUT",
      headers: { "content-type": "application/json", authorization: "Bearer t", "x-preferred-partner-id": "p" },
      body: big,
    });
    await res.arrayBuffer();
    expect(res.status).toBeGreaterThanOrEqual(400); // no draft yet, or too large: either way an answer
    const [logged] = api.requests();
    expect(JSON.stringify(logged).length).toBeLessThan(70 * 1024);
    expect(String(logged?.body)).toMatch(/bytes/);
    expect(Object.isFrozen(logged)).toBe(true);
    expect(Object.isFrozen(logged?.query)).toBe(true);
    expect(Object.isFrozen(logged?.query.flag)).toBe(true);
    expect(await status()).toBe(200);
  });
  it("the copies' bodies are frozen too: a test that edits one changes nothing the next reader sees", async () => {
    await fetch(`${api.baseUrl}/setup_processes/evt-7`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer t", "x-preferred-partner-id": "p" },
      body: JSON.stringify({ goal: "UTILIZATION", tcs: [{ tc: "a" }] }),
    });
    const body = api.requests()[0]?.body as { tcs: Array<{ tc: string }> };
    expect(Object.isFrozen(body)).toBe(true);
    expect(Object.isFrozen(body.tcs[0])).toBe(true);
    expect(() => {
      (body.tcs[0] as { tc: string }).tc = "b";
    }).toThrow(TypeError);
    expect(api.requests()[0]?.body).toEqual({ goal: "UTILIZATION", tcs: [{ tc: "a" }] });
  });
});

describe("requests() holds no secret in any form", () => {
  it("passwords, access, id and refresh tokens: in headers, JSON and form bodies, query strings, encoded", async () => {
    const password = "pw-~~~???-Zq81";
    const signIn = await fetch(`${api.baseUrl}/auth`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "demo", password }),
    });
    const tokens = (await signIn.json()) as { AccessToken: string; IdToken: string; RefreshToken: string };
    const bearer = "bearer-of-the-test-~~~???";
    const secrets = [password, tokens.AccessToken, tokens.IdToken, tokens.RefreshToken, bearer];
    const headers = { authorization: `Bearer ${bearer}`, "x-preferred-partner-id": api.partnerId };
    await fetch(`${api.baseUrl}/auth/refresh_token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: tokens.RefreshToken, refresh_token: tokens.RefreshToken }),
    });
    for (const [i, secret] of secrets.entries()) {
      const forms = Object.values(echoForms(secret)).slice(0, 5); // raw, url, form, base64, base64url
      const query = new URLSearchParams(forms.map((f, k) => [`q${k}`, f]));
      query.set("access_token", secret);
      await fetch(`${api.baseUrl}/events/evt-${i}?${query}`, { headers });
      await fetch(`${api.baseUrl}/setup_processes/evt-${i}`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ goal: "UTILIZATION", nested: { RefreshToken: secret, note: `see ${forms.join(" ")}` } }),
      });
      await fetch(`${api.baseUrl}/campaigns_setup`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/x-www-form-urlencoded", "x-mock-tag": "form" },
        body: new URLSearchParams({ password: secret, refreshToken: secret }).toString(),
      });
    }
    const log = JSON.stringify(api.requests());
    for (const secret of secrets) expect(findSecret(log, secret)).toBeUndefined();
    expect(api.requests().length).toBe(2 + 3 * secrets.length);
  });
});

describe("per client: a tag, and the partners of the token", () => {
  it("the x-mock-tag header, set with the client's `headers` option, is recorded on every call of that client (sign-in goes without)", async () => {
    const tagged = (tag: string) =>
      createAudienceClient({ baseUrl: api.baseUrl, credentials: api.credentials, headers: { "x-mock-tag": tag } });
    unwrap(await tagged("nightly-1").GET("/events/{eid}", { params: { path: { eid: "evt-1001" } } }));
    unwrap(await tagged("nightly-2").GET("/events/{eid}", { params: { path: { eid: "evt-1001" } } }));
    expect(api.requests().map((r) => `${r.tag} ${r.method} ${r.path}`)).toEqual([
      "undefined POST /auth",
      "nightly-1 GET /events/evt-1001",
      "undefined POST /auth",
      "nightly-2 GET /events/evt-1001",
    ]);
  });
  it("each request records the partners its bearer belongs to, when the mock minted the token", async () => {
    const client = createAudienceClient({ baseUrl: api.baseUrl, credentials: api.credentials });
    unwrap(await client.GET("/events/{eid}", { params: { path: { eid: "evt-1001" } } }));
    await fetch(`${api.baseUrl}/events/evt-1`, { headers: { authorization: "Bearer test-token" } });
    expect(api.requests().map((r) => r.tokenPartners)).toEqual([undefined, [api.partnerId], undefined]);
  });
});

describe("realistic data", () => {
  it("`events: N` seeds N events, listed page by page; each reads as itself", async () => {
    const client = createAudienceClient({ baseUrl: api.baseUrl, credentials: api.credentials });
    const ids: string[] = [];
    for await (const event of listEvents(client, { limit: 50 })) ids.push(event.id);
    expect(ids).toHaveLength(130);
    expect(new Set(ids).size).toBe(130);
    expect(api.requests().filter((r) => r.path === "/events/")).toHaveLength(3);
    const last = unwrap(await client.GET("/events/{eid}", { params: { path: { eid: ids[129] as string } } }));
    expect(last).toMatchObject({ id: ids[129], name: expect.any(String) });
  });
  it("a forecast: GET /events/{eid}/lookout_prediction answers a body with values, not null", async () => {
    const client = createAudienceClient({ baseUrl: api.baseUrl, credentials: api.credentials });
    const prediction = await readPrediction(client, "evt-1001", { type: "capacity" });
    expect(prediction.body).not.toBeNull();
    expect(prediction.values.length).toBeGreaterThan(0);
  });
  it("by default the mock has more than a page of events (page 2 exists)", async () => {
    const mock = await startMockApi();
    try {
      const page2 = await fetch(`${mock.baseUrl}/events/?page=2&limit=100`, {
        headers: { authorization: "Bearer t", "x-preferred-partner-id": mock.partnerId },
      });
      const { items } = (await page2.json()) as { items: Array<{ id: string }> };
      expect(items.map((e) => e.id)).toEqual(Array.from({ length: 20 }, (_, i) => `evt-${1101 + i}`));
    } finally {
      await mock.close();
    }
  }, 60_000);
  it("`events` is checked", async () => {
    await expect(startMockApi({ events: -1 })).rejects.toThrow(/^startMockApi option "events"/);
    await expect(startMockApi({ events: 1.5 })).rejects.toThrow(/^startMockApi option "events"/);
  });
  it.each([
    ["a number for options", 5, /^startMockApi options must be an object/],
    ["a string for options", "healthy", /^startMockApi options must be an object/],
    ["a partnerId that is not text", { partnerId: 5 }, /^startMockApi option "partnerId"/],
    ["an empty partnerId (the IdToken would name no partner)", { partnerId: "" }, /^startMockApi option "partnerId"/],
    ["a stateful that is not a boolean", { stateful: "no" }, /^startMockApi option "stateful"/],
    ["a description that is not a path", { description: 5 }, /^startMockApi option "description"/],
    ["a startTimeoutMs given as text", { startTimeoutMs: "5000" }, /^startMockApi option "startTimeoutMs"/],
    ["a startTimeoutMs of 0", { startTimeoutMs: 0 }, /^startMockApi option "startTimeoutMs"/],
    ["scenarioOptions that are not an object", { scenarioOptions: 5 }, /^startMockApi option "scenarioOptions"/],
  ])("refuses %s, naming it, before Prism starts", async (_label, options, pattern) => {
    // Given a description that does not exist, a Prism started first would fail on that file
    // ("Prism exited before it listened"), not with the option's own error.
    const given = typeof options === "object" ? { description: "/nonexistent/openapi.json", ...options } : options;
    await expect(startMockApi(given as never)).rejects.toThrow(pattern);
  });
  it("takes null as no options, as every helper of the package does", async () => {
    const mock = await startMockApi(null as never);
    try {
      expect(mock.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v3$/);
    } finally {
      await mock.close();
    }
  }, 60_000);
});

describe("server-errors on the wire: a five-attempt client completes every read, under every seed", () => {
  it("seeds 1 to 25, ten reads each, one after another", async () => {
    for (let seed = 1; seed <= 25; seed++) {
      api.reset();
      const client = createAudienceClient({
        baseUrl: api.baseUrl,
        session: { accessToken: "test-token" },
        partnerId: api.partnerId,
        retry: { baseDelayMs: 1, maxDelayMs: 2 },
        ratePacing: false,
      });
      api.useScenario("server-errors", { seed });
      for (let i = 0; i < 10; i++) unwrap(await client.GET("/events/{eid}", { params: { path: { eid: `evt-${i}` } } }));
      expect(api.requests().some((r) => (r.status ?? 0) >= 500)).toBe(true);
    }
  }, 60_000);
});
