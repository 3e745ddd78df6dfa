import { afterEach, describe, expect, it } from "vitest";
import {
  ApiError,
  AuthenticationError,
  createAudienceClient,
  isAudienceError,
  memoryTokenStore,
  SessionError,
  unwrap,
} from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

let api: FakeApi;
afterEach(() => api?.close());

const credentials = { username: "ops@acme.test", password: "correct horse battery staple" };

describe("session (Section 5)", () => {
  it("signs in once for 50 concurrent first calls", async () => {
    api = await startFakeApi({ signInDelayMs: 50 });
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => client.GET("/events/{eid}", { params: { path: { eid: `e${i}` } } })),
    );
    expect(results.every((r) => r.response.status === 200)).toBe(true);
    expect(api.signIns()).toBe(1);
    expect(api.calls()).toHaveLength(50);
    const bearer = `Bearer ${api.tokens().AccessToken}`;
    expect(
      api
        .calls()
        .every((r) => r.headers.authorization === bearer && r.headers["x-preferred-partner-id"] === "partner-id-acme"),
    ).toBe(true);
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
    api.route((req, res) =>
      req.headers.authorization === `Bearer ${firstAccess}`
        ? json(res, 401, { message: "error.auth.expired" })
        : json(res, 200, { ok: true }),
    );
    api.resetStats();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => client.GET("/events/{eid}", { params: { path: { eid: `e${i}` } } })),
    );
    expect(results.map((r) => r.response.status)).toEqual(Array(20).fill(200));
    expect(api.refreshes()).toBe(1);
    expect(api.signIns()).toBe(1);
    const refreshCall = api.requests.find((r) => r.path === "/auth/refresh_token");
    expect(JSON.parse(refreshCall?.body ?? "{}")).toEqual({ token: firstRefresh });
    // The 8 calls in flight meet the 401 and are replayed once; calls let in while the refresh runs
    // wait for it and go out once, with the new token.
    const refused = api.calls().filter((r) => r.headers.authorization === `Bearer ${firstAccess}`).length;
    expect(refused).toBeGreaterThanOrEqual(8);
    expect(api.calls()).toHaveLength(20 + refused);
    const perPath = new Map<string, number>();
    for (const r of api.calls()) perPath.set(r.path, (perPath.get(r.path) ?? 0) + 1);
    expect(Math.max(...perPath.values())).toBeLessThanOrEqual(2);
    // The refresh response omitted RefreshToken: the non-rotating one is kept for the next refresh.
    api.route((req, res) =>
      req.headers.authorization === `Bearer ${firstAccess}` ||
      (req.headers.authorization === `Bearer ${api.tokens().AccessToken}` && api.refreshes() === 1)
        ? json(res, 401, {})
        : json(res, 200, {}),
    );
    await client.GET("/events/{eid}", { params: { path: { eid: "again" } } });
    const second = api.requests.filter((r) => r.path === "/auth/refresh_token")[1];
    expect(JSON.parse(second?.body ?? "{}")).toEqual({ token: firstRefresh });
  });

  it("refreshes before exp so that no request leaves with an expired token", async () => {
    api = await startFakeApi();
    // 2 to 3 s of lifetime (exp has whole seconds): the refresh is due at half of it (60 s would
    // be longer than the token lives); calls wait for it only in its last tenth.
    const receivedAt = Date.now();
    const exp = Math.ceil(receivedAt / 1000) + 2;
    const short = makeTokens({ expSeconds: exp });
    const client = createAudienceClient({
      baseUrl: api.url,
      session: { accessToken: short.AccessToken, refreshToken: short.RefreshToken, idToken: short.IdToken },
    });
    await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    expect(api.refreshes()).toBe(0);
    expect(api.calls()[0]?.headers.authorization).toBe(`Bearer ${short.AccessToken}`);
    const due = exp * 1000 - (exp * 1000 - receivedAt) / 2;
    await new Promise((r) => setTimeout(r, due + 50 - Date.now())); // past half the lifetime: due
    // Due, not expired: this call keeps the current token, and the refresh starts in the background.
    await client.GET("/events/{eid}", { params: { path: { eid: "e2" } } });
    expect(api.calls()[1]?.headers.authorization).toBe(`Bearer ${short.AccessToken}`);
    while (client.sessionStats().refreshes === 0) await new Promise((r) => setTimeout(r, 5));
    await client.GET("/events/{eid}", { params: { path: { eid: "e3" } } });
    expect(api.refreshes()).toBe(1);
    const sent = api.calls()[2]?.headers.authorization ?? "";
    const claims = JSON.parse(Buffer.from(sent.split(".")[1] ?? "", "base64url").toString()) as { exp: number };
    expect(claims.exp * 1000).toBeGreaterThan(Date.now() + 60_000);
  });

  it("past the hard margin (a tenth of a short lifetime before exp) a call waits for the refresh", async () => {
    api = await startFakeApi();
    const exp = Math.floor(Date.now() / 1000) + 2;
    const short = makeTokens({ expSeconds: exp });
    const client = createAudienceClient({
      baseUrl: api.url,
      session: { accessToken: short.AccessToken, refreshToken: short.RefreshToken, idToken: short.IdToken },
    });
    while (Date.now() < exp * 1000 - 90) await new Promise((r) => setTimeout(r, 10));
    await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    expect(api.refreshes()).toBe(1);
    expect(api.calls()[0]?.headers.authorization).not.toBe(`Bearer ${short.AccessToken}`);
  });

  it("a call that waited for its concurrency slot leaves with the token current then, not the one of when it was made", async () => {
    api = await startFakeApi();
    // Due for refresh within the next second: 2 s of lifetime, due at half of it.
    const receivedAt = Date.now();
    const exp = Math.floor(receivedAt / 1000) + 2;
    // Past the hard margin (a tenth of the lifetime before exp), a call waits for the refresh.
    const renewAt = exp * 1000 - (exp * 1000 - receivedAt) / 10;
    const first = makeTokens({ expSeconds: exp });
    const client = createAudienceClient({
      baseUrl: api.url,
      maxConcurrency: 1,
      session: { accessToken: first.AccessToken, refreshToken: first.RefreshToken, idToken: first.IdToken },
    });
    api.route(async (req, res) => {
      // The first call holds the only slot until the token is due.
      if (req.path === "/events/slow") while (Date.now() <= renewAt + 20) await new Promise((r) => setTimeout(r, 10));
      json(res, 200, {});
    });
    const slow = client.GET("/events/{eid}", { params: { path: { eid: "slow" } } });
    while (api.calls().length === 0) await new Promise((r) => setTimeout(r, 5));
    const queued = client.GET("/events/{eid}", { params: { path: { eid: "queued" } } });
    expect(client.concurrency()).toMatchObject({ active: 1 });
    await Promise.all([slow, queued]);
    const [slowCall, queuedCall] = api.calls();
    expect(slowCall?.headers.authorization).toBe(`Bearer ${first.AccessToken}`);
    expect(api.refreshes()).toBe(1);
    expect(queuedCall?.headers.authorization).toBe(`Bearer ${api.tokens().AccessToken}`);
  });

  it("calls that reach their turn while a refresh runs wait for it instead of sending the refused token", async () => {
    api = await startFakeApi();
    const client = createAudienceClient({ baseUrl: api.url, maxConcurrency: 1, credentials });
    await client.GET("/events/{eid}", { params: { path: { eid: "warm" } } });
    const stale = api.tokens().AccessToken;
    api.route((req, res) => json(res, req.headers.authorization === `Bearer ${stale}` ? 401 : 200, {}));
    api.resetStats();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => client.GET("/events/{eid}", { params: { path: { eid: `e${i}` } } })),
    );
    expect(results.map((r) => r.response.status)).toEqual(Array(6).fill(200));
    expect(api.refreshes()).toBe(1);
    const refused = api.calls().filter((r) => r.headers.authorization === `Bearer ${stale}`);
    // At most the call that met the 401 and the one let into the freed slot before the refresh began.
    expect(refused.length).toBeLessThanOrEqual(2);
    expect(api.calls().length).toBe(6 + refused.length);
  });

  it("refuses to send an expired token when nothing can renew it", async () => {
    api = await startFakeApi();
    const expired = makeTokens({ expSeconds: Math.floor(Date.now() / 1000) - 10 });
    const client = createAudienceClient({
      baseUrl: api.url,
      session: { accessToken: expired.AccessToken, idToken: expired.IdToken },
    });
    const error = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch((e: unknown) => e);
    // Nothing was sent, so no HTTP answer to report: a SessionError, not an ApiError with a made-up status.
    expect(error).toBeInstanceOf(SessionError);
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as Error).message).toMatch(/has expired and there is no refresh token or credentials/);
    expect(api.requests).toHaveLength(0);
  });

  it("with an empty token store and no credentials, a call fails with a SessionError and sends nothing", async () => {
    api = await startFakeApi();
    const client = createAudienceClient({ baseUrl: api.url, tokenStore: memoryTokenStore() });
    const error = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionError);
    expect(isAudienceError(error)).toBe(true);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(error).not.toHaveProperty("status");
    const session = error as SessionError;
    expect(session.name).toBe("SessionError");
    expect(session.message).toMatch(/No session and no credentials/);
    expect(session.toJSON()).toMatchObject({ name: "SessionError", expected: "a session" });
    expect(session.supportReport()).toMatch(/actual: {7}SessionError: No session and no credentials/);
    expect(api.requests).toHaveLength(0);
  });

  it("signs in again when the refresh is refused with 400 and credentials were given", async () => {
    api = await startFakeApi({
      onRefresh: (_req, res) => {
        json(res, 400, { message: "error.auth.invalid_refresh" });
        return true;
      },
    });
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    await client.GET("/events/{eid}", { params: { path: { eid: "warm" } } });
    const stale = api.tokens().AccessToken;
    api.route((req, res) => json(res, req.headers.authorization === `Bearer ${stale}` ? 401 : 200, {}));
    const result = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    expect(result.response.status).toBe(200);
    expect(api.signIns()).toBe(2);
  });

  it("a 401 whose refresh is refused (no credentials) is the call's answer; unwrap raises AuthenticationError saying why", async () => {
    api = await startFakeApi({
      onRefresh: (_req, res) => {
        json(res, 400, {});
        return true;
      },
    });
    const t = makeTokens();
    const client = createAudienceClient({
      baseUrl: api.url,
      session: { accessToken: t.AccessToken, refreshToken: t.RefreshToken, idToken: t.IdToken },
    });
    api.route((_req, res) => json(res, 401, {}));
    // An answered call is an HTTP answer (openapi-fetch's contract): { error, response }, not a throw.
    const result = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    expect(result.response.status).toBe(401);
    const error = (() => {
      try {
        return unwrap(result);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(String((error as Error).message)).toContain("refused");
    expect(String((error as Error).message)).toContain("the refresh token was refused (HTTP 400)");
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
