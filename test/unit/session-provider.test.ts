/**
 * A session provider: `session` as an async function, the application's way to ask its backend
 * for a token (a page cannot hold a password or refresh token, Section 5.4). Asked on the first
 * call (single flight), again before the held token's `exp` in the background (no call waits while
 * the held token is valid), and after a 401 to the current token (then the call is replayed once).
 * A provider that rejects or hangs fails the waiting calls with a SessionError naming it, its error
 * as `cause`, and is asked again only by a later call, at most once a second. The backend's half:
 * `client.accessToken()`.
 */
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAudienceClient, SessionError } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json, type RecordedRequest } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const partnerId = "partner-id-acme";
const expOf = (token: string): number =>
  JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()).exp as number;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An API that accepts the tokens the provider issued (not expired, not revoked). */
async function providerApi() {
  const revoked = new Set<string>();
  let expiredSent = 0;
  api = await startFakeApi();
  api.route((req: RecordedRequest, res: ServerResponse) => {
    const token = String(req.headers.authorization ?? "").replace(/^Bearer /, "");
    if (revoked.has(token)) return json(res, 401, { message: "error.auth.invalid_token" });
    if (expOf(token) * 1000 <= Date.now()) {
      expiredSent += 1;
      return json(res, 401, { message: "error.auth.expired" });
    }
    return json(res, 200, { ok: true });
  });
  return { url: api.url, revoke: (t: string) => revoked.add(t), expiredSent: () => expiredSent };
}

/** A provider standing for the app's backend endpoint: tokens living `lifeS` seconds, after `delayMs`. */
function provider(lifeS = 3600, delayMs = 0) {
  const issued: string[] = [];
  /** When each token was handed to the client. */
  const issuedAt = new Map<string, number>();
  const fn = async () => {
    await sleep(delayMs);
    const t = makeTokens({ expSeconds: Math.floor(Date.now() / 1000) + lifeS });
    issued.push(t.AccessToken);
    issuedAt.set(t.AccessToken, Date.now());
    return { accessToken: t.AccessToken };
  };
  return { fn, issued, issuedAt };
}

const read = (client: ReturnType<typeof createAudienceClient>, eid = "e1") =>
  client.GET("/events/{eid}", { params: { path: { eid } } });

describe("session as an async function (a provider)", () => {
  it("20 concurrent first calls ask the provider once, and send its token", async () => {
    const server = await providerApi();
    const p = provider(3600, 50);
    const client = createAudienceClient({ baseUrl: server.url, partnerId, session: p.fn });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => read(client, `e${i}`)));
    for (const r of results) expect(r.response.status).toBe(200);
    expect(p.issued).toHaveLength(1);
    const sent = api?.calls().map((r) => r.headers.authorization);
    expect(new Set(sent)).toEqual(new Set([`Bearer ${p.issued[0]}`]));
    expect(api?.calls().every((r) => r.headers["x-preferred-partner-id"] === partnerId)).toBe(true);
  });

  it("asks again before exp in the background: no call waits while the held token is valid, none sends an expired one", async () => {
    const server = await providerApi();
    const p = provider(3, 300); // 3 s tokens; a slow backend
    const client = createAudienceClient({ baseUrl: server.url, partnerId, session: p.fn });
    expect((await read(client)).response.status).toBe(200);
    // A call waited for a token when it sent one handed over after the call began (the held one
    // was valid: no expired token is sent, checked below). Wall-clock durations would count load.
    let waited = 0;
    let n = 0;
    const started = Date.now();
    while (Date.now() - started < 4_000) {
      const t0 = Date.now();
      const eid = `w${n++}`;
      expect((await read(client, eid)).response.status).toBe(200);
      const sent = api?.calls().find((r) => r.path === `/events/${eid}`);
      const token = String(sent?.headers.authorization).replace(/^Bearer /, "");
      if ((p.issuedAt.get(token) ?? 0) > t0) waited += 1;
      await sleep(50);
    }
    expect(waited).toBe(0);
    expect(server.expiredSent()).toBe(0);
    expect(p.issued.length).toBeGreaterThanOrEqual(2);
    expect(p.issued.length).toBeLessThanOrEqual(5);
  });

  it("a 401 to the current token asks the provider once and replays the call once", async () => {
    const server = await providerApi();
    const p = provider();
    const client = createAudienceClient({ baseUrl: server.url, partnerId, session: p.fn });
    expect((await read(client)).response.status).toBe(200);
    server.revoke(p.issued[0] as string);
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => read(client, `r${i}`)));
    for (const r of results) expect(r.response.status).toBe(200);
    expect(p.issued).toHaveLength(2);
  });

  it("a rejecting provider fails the waiting calls with a SessionError naming it, and is not asked in a loop", async () => {
    const server = await providerApi();
    let asked = 0;
    const cause = new Error("backend said no");
    const client = createAudienceClient({
      baseUrl: server.url,
      partnerId,
      session: async () => {
        asked += 1;
        throw cause;
      },
    });
    const errors = await Promise.all(Array.from({ length: 5 }, () => read(client).catch((e: unknown) => e)));
    for (const e of errors) {
      expect(e).toBeInstanceOf(SessionError);
      expect((e as Error).message).toMatch(/session provider/);
      expect((e as Error).cause).toBe(cause);
    }
    expect(asked).toBe(1);
    // A later call within a second is not a reason to ask again.
    expect(await read(client).catch((e: unknown) => e)).toBeInstanceOf(SessionError);
    expect(asked).toBe(1);
    await sleep(1_100);
    expect(await read(client).catch((e: unknown) => e)).toBeInstanceOf(SessionError);
    expect(asked).toBe(2);
    expect(api?.calls()).toHaveLength(0);
  });

  it("a hanging provider is bounded by timeoutMs", async () => {
    const server = await providerApi();
    const client = createAudienceClient({
      baseUrl: server.url,
      partnerId,
      timeoutMs: 200,
      session: () => new Promise<never>(() => undefined),
    });
    const t0 = Date.now();
    const error = await read(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionError);
    expect((error as Error).message).toMatch(/session provider/);
    expect(Date.now() - t0).toBeLessThan(2_000);
  });

  it("what it returns is checked like any session: not header text is a SessionError with the check as cause", async () => {
    const server = await providerApi();
    const client = createAudienceClient({
      baseUrl: server.url,
      partnerId,
      session: async () => ({ accessToken: "bad\r\ntoken" }),
    });
    const error = await read(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionError);
    expect((error as Error).message).not.toContain("bad\r\ntoken");
    expect(api?.calls()).toHaveLength(0);
  });

  it("useSession keeps working with a provider", async () => {
    const server = await providerApi();
    const p = provider();
    const client = createAudienceClient({ baseUrl: server.url, partnerId, session: p.fn });
    const t = makeTokens();
    client.useSession({ accessToken: t.AccessToken });
    expect((await read(client)).response.status).toBe(200);
    expect(p.issued).toHaveLength(0);
    expect(api?.calls()[0]?.headers.authorization).toBe(`Bearer ${t.AccessToken}`);
  });
});

describe("client.accessToken(): the backend's half", () => {
  it("returns the token, its expiry in epoch ms and the partner, signing in first", async () => {
    api = await startFakeApi();
    const client = createAudienceClient({
      baseUrl: api.url,
      credentials: { username: "ops@acme.test", password: "pw-backend-secret" },
    });
    const held = await client.accessToken();
    expect(held.accessToken).toBe(api.tokens().AccessToken);
    expect(held.expiresAt).toBe(expOf(api.tokens().AccessToken) * 1000);
    expect(held.partnerId).toBe("partner-id-acme");
    expect(api.signIns()).toBe(1);
    // Asked again while valid: the same token, nothing sent.
    expect((await client.accessToken()).accessToken).toBe(held.accessToken);
    expect(api.signIns()).toBe(1);
  });

  it("a page's provider can return what client.accessToken() returned, as README shows", async () => {
    api = await startFakeApi();
    const backend = createAudienceClient({
      baseUrl: api.url,
      credentials: { username: "ops@acme.test", password: "pw-backend-secret" },
    });
    const held = await backend.accessToken();
    const page = createAudienceClient({
      baseUrl: api.url,
      partnerId: held.partnerId,
      session: async () => JSON.parse(JSON.stringify(await backend.accessToken())),
    });
    expect((await read(page)).response.status).toBe(200);
    expect(api.calls()[0]?.headers.authorization).toBe(`Bearer ${held.accessToken}`);
    expect(api.signIns()).toBe(1);
  });

  it("renews first when the token is within the refresh window", async () => {
    api = await startFakeApi({ expSeconds: () => Math.floor(Date.now() / 1000) + 2 });
    const client = createAudienceClient({
      baseUrl: api.url,
      credentials: { username: "ops@acme.test", password: "pw-backend-secret" },
    });
    const first = await client.accessToken();
    await sleep(1_200); // past half the 2 s lifetime: the refresh window
    const second = await client.accessToken();
    expect(second.accessToken).not.toBe(first.accessToken);
    expect(api.refreshes()).toBe(1);
  });
});

describe("in a page (browser-like globals; the real thing runs in Chromium)", () => {
  afterEach(() => vi.unstubAllGlobals());
  function inBrowserPage(): void {
    vi.stubGlobal("window", {});
    vi.stubGlobal("document", {});
    vi.stubGlobal("location", { origin: "https://app.example.test" });
    vi.stubGlobal("process", { ...process, versions: {} });
  }
  const expired = () => makeTokens({ expSeconds: Math.floor(Date.now() / 1000) - 10 }).AccessToken;

  it("a refresh token from the provider is refused: a SessionError whose cause names the rule", async () => {
    inBrowserPage();
    const t = makeTokens();
    const client = createAudienceClient({
      baseUrl: "https://api.example.test/api/v3",
      partnerId,
      fetch: async () => new Response("{}"),
      session: async () => ({ accessToken: t.AccessToken, refreshToken: t.RefreshToken }) as { accessToken: string },
    });
    const error = await read(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionError);
    expect((error as Error).message).toMatch(/server-side only/);
    expect((error as Error).message).not.toContain(t.RefreshToken);
  });

  it("an expired token with nothing to renew it says to give `session` a provider, not to pass credentials", async () => {
    inBrowserPage();
    const client = createAudienceClient({
      baseUrl: "https://api.example.test/api/v3",
      partnerId,
      fetch: async () => new Response("{}"),
      session: { accessToken: expired() },
    });
    const error = await read(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionError);
    expect((error as Error).message).toMatch(/give `session` an async function/);
    expect((error as Error).message).not.toMatch(/pass credentials/);
  });

  it("on a server the same error says what a server can do", async () => {
    const client = createAudienceClient({
      baseUrl: "https://api.example.test/api/v3",
      partnerId,
      fetch: async () => new Response("{}"),
      session: { accessToken: expired() },
    });
    const error = await read(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionError);
    expect((error as Error).message).toMatch(/credentials|refresh token/);
  });
});
