/**
 * `/auth/*` has the tightest budget (Section 8.5): a refused sign-in or
 * refresh token is not repeated by every call, transient sign-in failures share one cool-down, a
 * token never costs more than one refresh per call, and an aborted call sends nothing.
 */
import { afterEach, describe, expect, it } from "vitest";
import { AuthenticationError, createAudienceClient, ServerError } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

let api: FakeApi;
afterEach(() => api?.close());

const credentials = { username: "ops@acme.test", password: "pw-budget-secret" };
const fast = { baseDelayMs: 1, maxDelayMs: 2, rateLimitDelayMs: [1, 2] as const };
const read = (client: ReturnType<typeof createAudienceClient>, eid = "e1", signal?: AbortSignal) =>
  client.GET("/events/{eid}", { params: { path: { eid } }, ...(signal ? { signal } : {}) });
const signInPosts = () => api.requests.filter((r) => r.path === "/auth").length;
const refreshPosts = () => api.requests.filter((r) => r.path === "/auth/refresh_token").length;

/** A fake API whose /auth answers with `answer` until `ok` is set. */
async function authAnswering(answer: (res: import("node:http").ServerResponse) => void) {
  let ok = false;
  api = await startFakeApi();
  const tokens = makeTokens();
  api.handle((req, res) => {
    if (req.path === "/auth") return ok ? json(res, 200, tokens) : answer(res);
    return json(res, 200, { ok: true });
  });
  return {
    allow: () => {
      ok = true;
    },
  };
}

describe("a refused sign-in is remembered", () => {
  it.each([400, 401, 403])("HTTP %i: 20 calls send the password once, and fail fast saying why", async (status) => {
    const server = await authAnswering((res) => json(res, status, { message: "error.auth.invalid_credentials" }));
    const client = createAudienceClient({ baseUrl: api.url, credentials, retry: fast });
    const errors: unknown[] = [];
    for (let i = 0; i < 20; i++) errors.push(await read(client).catch((e: unknown) => e));
    expect(signInPosts()).toBe(1);
    expect(errors.every((e) => e instanceof AuthenticationError)).toBe(true);
    expect((errors[0] as Error).message).toMatch(new RegExp(`sign-in refused \\(HTTP ${status}\\)`));
    expect((errors[19] as Error).message).toMatch(/Not sent: the API refused this client's credentials earlier/);
    expect((errors[19] as AuthenticationError).status).toBe(status);
    // New credentials lift the refusal.
    server.allow();
    client.useCredentials({ username: "ops@acme.test", password: "the-new-password" });
    expect((await read(client)).response.status).toBe(200);
    expect(signInPosts()).toBe(2);
  });

  it("a sign-in answered 200 without tokens (an MFA challenge) is an AuthenticationError, not repeated", async () => {
    await authAnswering((res) => json(res, 200, { ChallengeName: "SOFTWARE_TOKEN_MFA", Session: "opaque" }));
    const client = createAudienceClient({ baseUrl: api.url, credentials, retry: fast });
    const errors = await Promise.all(Array.from({ length: 10 }, () => read(client).catch((e: unknown) => e)));
    for (let i = 0; i < 5; i++) errors.push(await read(client).catch((e: unknown) => e));
    expect(signInPosts()).toBe(1);
    expect(errors.every((e) => e instanceof AuthenticationError)).toBe(true);
    expect((errors[0] as Error).message).toContain("the sign-in returned no tokens");
    expect(api.calls()).toHaveLength(0);
  });

  it("a refresh token the server refused is never sent again", async () => {
    api = await startFakeApi({
      onRefresh: (_req, res) => {
        json(res, 400, { message: "error.auth.invalid_refresh" });
        return true;
      },
    });
    api.route((_req, res) => json(res, 401, { message: "error.auth.expired" }));
    const t = makeTokens();
    const client = createAudienceClient({
      baseUrl: api.url,
      session: { accessToken: t.AccessToken, refreshToken: t.RefreshToken, idToken: t.IdToken },
      retry: fast,
    });
    const errors: unknown[] = [];
    for (let i = 0; i < 10; i++) errors.push(await read(client).catch((e: unknown) => e));
    expect(refreshPosts()).toBe(1);
    // The first call was answered: its 401 is its answer (openapi-fetch's contract).
    expect((errors[0] as { response: Response }).response.status).toBe(401);
    expect(errors.slice(1).every((e) => e instanceof AuthenticationError)).toBe(true);
    expect((errors[9] as Error).message).toMatch(/^Not sent: .*refresh token was refused/);
    // The first call met the 401, refreshed once and failed; later calls send nothing at all.
    expect(api.calls()).toHaveLength(1);
  });
});

describe("transient sign-in failures share one cool-down", () => {
  it("a sign-in failing with 503 costs its own retries once; calls during the cool-down send nothing", async () => {
    const server = await authAnswering((res) => json(res, 503, {}));
    const client = createAudienceClient({
      baseUrl: api.url,
      credentials,
      retry: { ...fast, baseDelayMs: 1000, maxDelayMs: 1000, maxAttempts: 2 },
    });
    const first = await read(client).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(ServerError);
    expect(signInPosts()).toBe(2); // its own two attempts
    const during = await Promise.all(Array.from({ length: 10 }, () => read(client).catch((e: unknown) => e)));
    expect(signInPosts()).toBe(2);
    expect(during.every((e) => e instanceof ServerError)).toBe(true);
    expect((during[0] as Error).message).toMatch(/Not sent: the last sign-in or refresh failed/);
    // After the cool-down (backoff of the first failure: 700 to 1000 ms) the next call signs in.
    server.allow();
    await new Promise((r) => setTimeout(r, 1050));
    expect((await read(client)).response.status).toBe(200);
    expect(signInPosts()).toBe(3);
  });

  it("a 429 with Retry-After on the sign-in sets the cool-down to the server's wait", async () => {
    const server = await authAnswering((res) => json(res, 429, {}, { "retry-after": "2" }));
    const client = createAudienceClient({ baseUrl: api.url, credentials, retry: { ...fast, maxAttempts: 1 } });
    await read(client).catch(() => undefined);
    server.allow();
    await new Promise((r) => setTimeout(r, 300));
    await expect(read(client)).rejects.toMatchObject({ name: "RateLimitError" });
    expect(signInPosts()).toBe(1);
    await new Promise((r) => setTimeout(r, 1800));
    expect((await read(client)).response.status).toBe(200);
    expect(signInPosts()).toBe(2);
  });
});

describe("one refresh per call at most, whatever the token lifetime", () => {
  it("tokens living 30 s (less than the 60 s margin): 10 calls, no refresh", async () => {
    api = await startFakeApi({ expSeconds: () => Math.floor(Date.now() / 1000) + 30 });
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    for (let i = 0; i < 10; i++) expect((await read(client, `e${i}`)).response.status).toBe(200);
    expect(api.signIns()).toBe(1);
    expect(api.refreshes()).toBe(0);
  });

  it("tokens that look expired on arrival with the server's clock unknown (a clock matter): each call refreshes at most once", async () => {
    // No Date on any response: the server's time is unknown, so an exp in the past may be our
    // clock's error and the tokens are used (session/arrival.ts; with a Date they are judged by
    // it: test/operations/expired-on-arrival.test.ts).
    api = await startFakeApi();
    api.handle((req, res) => {
      res.sendDate = false;
      if (req.path.startsWith("/auth"))
        return json(res, 200, makeTokens({ expSeconds: Math.floor(Date.now() / 1000) - 5 }));
      return json(res, 200, { ok: true });
    });
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    for (let i = 0; i < 10; i++) expect((await read(client, `e${i}`)).response.status).toBe(200);
    expect(refreshPosts()).toBeLessThanOrEqual(10);
    expect(api.requests.filter((r) => r.path.startsWith("/events/"))).toHaveLength(10);
  });
});

describe("an aborted call sends nothing", () => {
  it("a call whose signal is already aborted sends neither the sign-in nor the call", async () => {
    api = await startFakeApi();
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    const reason = new Error("caller gave up");
    await expect(read(client, "e1", AbortSignal.abort(reason))).rejects.toBe(reason);
    await new Promise((r) => setTimeout(r, 50));
    expect(api.requests).toHaveLength(0);
    // The client stays usable.
    expect((await read(client)).response.status).toBe(200);
  });
});
