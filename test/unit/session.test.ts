import { afterEach, describe, expect, it } from "vitest";
import { AuthenticationError, createAudienceClient, memoryTokenStore } from "../../src/index.ts";
import { startFakeApi, type FakeApi } from "../support/fake-api.ts";
import { json } from "../support/recording-server.ts";
import { inOneHour, makeTokens } from "../support/tokens.ts";

let api: FakeApi;
afterEach(() => api?.close());

const credentials = { username: "ops@acme.test", password: "correct horse battery staple" };

describe("session (Section 5)", () => {
  it("signs in once for 50 concurrent first calls", async () => {
    api = await startFakeApi({ signInDelayMs: 50 });
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => client.GET("/events/{eid}", { params: { path: { eid: `e${i}` } } })));
    expect(results.every((r) => r.response.status === 200)).toBe(true);
    expect(api.signIns()).toBe(1);
    expect(api.calls()).toHaveLength(50);
    const bearer = `Bearer ${api.tokens().AccessToken}`;
    expect(api.calls().every((r) => r.headers.authorization === bearer && r.headers["x-preferred-partner-id"] === "partner-id-acme")).toBe(true);
  });

  it("a caller that aborts while the shared sign-in runs stops waiting; the others still get the session", async () => {
    api = await startFakeApi({ signInDelayMs: 150 });
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    const controller = new AbortController();
    const aborted = client.GET("/events/{eid}", { params: { path: { eid: "a" } }, signal: controller.signal });
    const other = client.GET("/events/{eid}", { params: { path: { eid: "b" } } });
    setTimeout(() => controller.abort(), 20);
    await expect(aborted).rejects.toMatchObject({ name: "AbortError" });
    expect((await other).response.status).toBe(200);
    expect(api.signIns()).toBe(1);
    expect(api.calls().map((r) => r.path)).toEqual(["/events/b"]);
  });

  it("refreshes once for 20 concurrent 401s and replays each call once", async () => {
    api = await startFakeApi({ refreshOmitsRefreshToken: true });
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    await client.GET("/events/{eid}", { params: { path: { eid: "warm" } } });
    const firstAccess = api.tokens().AccessToken;
    const firstRefresh = api.tokens().RefreshToken;
    api.route((req, res) => (req.headers.authorization === `Bearer ${firstAccess}` ? json(res, 401, { message: "error.auth.expired" }) : json(res, 200, { ok: true })));
    api.resetStats();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => client.GET("/events/{eid}", { params: { path: { eid: `e${i}` } } })));
    expect(results.map((r) => r.response.status)).toEqual(Array(20).fill(200));
    expect(api.refreshes()).toBe(1);
    expect(api.signIns()).toBe(1);
    const refreshCall = api.requests.find((r) => r.path === "/auth/refresh_token");
    expect(JSON.parse(refreshCall?.body ?? "{}")).toEqual({ token: firstRefresh });
    expect(api.calls()).toHaveLength(40); // each call: one 401, one replay
    // The refresh response omitted RefreshToken: the non-rotating one is kept for the next refresh.
    api.route((req, res) => (req.headers.authorization === `Bearer ${firstAccess}` || req.headers.authorization === `Bearer ${api.tokens().AccessToken}` && api.refreshes() === 1 ? json(res, 401, {}) : json(res, 200, {})));
    await client.GET("/events/{eid}", { params: { path: { eid: "again" } } });
    const second = api.requests.filter((r) => r.path === "/auth/refresh_token")[1];
    expect(JSON.parse(second?.body ?? "{}")).toEqual({ token: firstRefresh });
  });

  it("refreshes before exp so that no request leaves with an expired token", async () => {
    let issued = 0;
    // The first tokens (the fake API issues one set at start, one at sign-in) expire inside the
    // refresh skew; those from the refresh are fresh.
    api = await startFakeApi({ expSeconds: () => (++issued <= 2 ? Math.floor(Date.now() / 1000) + 30 : inOneHour()) });
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    expect(api.signIns()).toBe(1);
    expect(api.refreshes()).toBe(1);
    const sent = api.calls()[0]?.headers.authorization ?? "";
    const claims = JSON.parse(Buffer.from(sent.split(".")[1] ?? "", "base64url").toString()) as { exp: number };
    expect(claims.exp * 1000).toBeGreaterThan(Date.now() + 60_000);
  });

  it("refuses to send an expired token when nothing can renew it", async () => {
    api = await startFakeApi();
    const expired = makeTokens({ expSeconds: Math.floor(Date.now() / 1000) - 10 });
    const client = createAudienceClient({ baseUrl: api.url, session: { accessToken: expired.AccessToken, idToken: expired.IdToken } });
    await expect(client.GET("/events/{eid}", { params: { path: { eid: "e1" } } })).rejects.toBeInstanceOf(AuthenticationError);
    expect(api.requests).toHaveLength(0);
  });

  it("signs in again when the refresh is refused with 400 and credentials were given", async () => {
    api = await startFakeApi({ onRefresh: (_req, res) => (json(res, 400, { message: "error.auth.invalid_refresh" }), true) });
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    await client.GET("/events/{eid}", { params: { path: { eid: "warm" } } });
    const stale = api.tokens().AccessToken;
    api.route((req, res) => json(res, req.headers.authorization === `Bearer ${stale}` ? 401 : 200, {}));
    const result = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    expect(result.response.status).toBe(200);
    expect(api.signIns()).toBe(2);
  });

  it("raises AuthenticationError when the refresh is refused and there are no credentials", async () => {
    api = await startFakeApi({ onRefresh: (_req, res) => (json(res, 400, {}), true) });
    const t = makeTokens();
    const client = createAudienceClient({ baseUrl: api.url, session: { accessToken: t.AccessToken, refreshToken: t.RefreshToken, idToken: t.IdToken } });
    api.route((_req, res) => json(res, 401, {}));
    const error = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(String((error as Error).message)).toContain("refused");
  });

  it("never sends the bearer token or partner header to /status/ and /auth", async () => {
    api = await startFakeApi();
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    await client.GET("/events/", {});
    await client.GET("/status/", { headers: { Authorization: "Bearer smuggled-token-value" } });
    for (const r of api.requests.filter((r) => r.path === "/status/" || r.path.startsWith("/auth"))) {
      expect(r.headers.authorization).toBeUndefined();
      expect(r.headers["x-preferred-partner-id"]).toBeUndefined();
    }
  });

  it("reads the session from a token store and writes it back after sign-in", async () => {
    api = await startFakeApi();
    const store = memoryTokenStore();
    const a = createAudienceClient({ baseUrl: api.url, credentials, tokenStore: store });
    await a.GET("/events/", {});
    const b = createAudienceClient({ baseUrl: api.url, credentials, tokenStore: store });
    await b.GET("/events/", {});
    expect(api.signIns()).toBe(1);
    expect((await store.get())?.accessToken).toBe(api.tokens().AccessToken);
  });
});
