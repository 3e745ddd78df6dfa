/**
 * The session cache (session/session-cache.ts, loaded on first use by session/lazy-cache.ts) that
 * cannot be loaded — a chunk the deployment no longer serves, a page gone offline — is a store that
 * failed (Section 5.8: a cache, never a single point of failure): the session signs in, renews and
 * replays on its own, every call succeeds, the failure is reported by its kind only, and a later need
 * tries the load again (once per need, never in a loop).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAudienceClient, memoryTokenStore } from "../../src/index.ts";
import { fileCoordinator } from "../../src/node/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

const loads = vi.hoisted(() => ({ tried: 0 }));
vi.mock("../../src/session/session-cache.ts", () => {
  loads.tried += 1;
  throw new Error("chunk not served");
});

let api: FakeApi | undefined;
let dir: string | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

const credentials = { username: "ops@acme.test", password: "pw-cache-unloadable" };
const retry = { baseDelayMs: 1, maxDelayMs: 2 };
const event = (client: ReturnType<typeof createAudienceClient>) =>
  client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });

function logged() {
  const lines: string[] = [];
  const logger = {
    warn: (message: string, meta?: unknown) => lines.push(`${message} ${JSON.stringify(meta ?? {})}`),
    debug: () => undefined,
    info: () => undefined,
    error: (message: string, meta?: unknown) => lines.push(`${message} ${JSON.stringify(meta ?? {})}`),
  };
  return { lines, logger };
}

async function sharedSessionClient(extra: Record<string, unknown> = {}) {
  dir = await mkdtemp(join(tmpdir(), "cache-unloadable-"));
  const { lines, logger } = logged();
  const client = createAudienceClient({
    baseUrl: (api as FakeApi).url,
    retry,
    logger,
    coordinator: fileCoordinator({ directory: dir }),
    ...(extra.session ? {} : { credentials }),
    ...extra,
  } as never);
  return { client, lines };
}

function expectNoSecret(lines: string[], secrets: string[]): void {
  const text = lines.join("\n");
  for (const secret of secrets) expect(text).not.toContain(secret);
}

describe("a session cache that cannot be loaded", () => {
  it("with a coordinator that shares the session: the first calls sign in alone, once, and succeed", async () => {
    api = await startFakeApi();
    const { client, lines } = await sharedSessionClient();
    const results = await Promise.all([event(client), event(client), event(client)]);
    for (const r of results) expect(r.response.status).toBe(200);
    expect(api.signIns()).toBe(1);
    expect(lines.join("\n")).toMatch(/could not be loaded/);
    expectNoSecret(lines, [credentials.password, ...api.issued]);
  });

  it("a renewal in the refresh window goes on alone and the call succeeds", async () => {
    // Tokens that live 3 s: the refresh starts at half their lifetime (limits.ts tokenRefreshSkewMs).
    api = await startFakeApi({ expSeconds: () => Math.floor(Date.now() / 1000) + 3 });
    const { client } = await sharedSessionClient();
    expect((await event(client)).response.status).toBe(200);
    // Past half the lifetime: the next call starts the renewal in the background.
    await new Promise((r) => setTimeout(r, 1_600));
    expect((await event(client)).response.status).toBe(200);
    await vi.waitFor(() => expect(api?.refreshes()).toBeGreaterThanOrEqual(1), { timeout: 5_000 });
    expect((await event(client)).response.status).toBe(200);
    expect(api.signIns()).toBe(1);
  });

  it("a 401 to the held token: renewed alone, the call replayed once and it succeeds", async () => {
    api = await startFakeApi();
    let rejected = 0;
    api.route((_req, res) => {
      if (rejected === 0) {
        rejected += 1;
        return json(res, 401, { message: "token revoked" });
      }
      return json(res, 200, { ok: true });
    });
    const { client } = await sharedSessionClient();
    expect((await event(client)).response.status).toBe(200);
    expect(api.calls()).toHaveLength(2);
    expect(api.refreshes()).toBe(1);
  });

  it("a session provider with a coordinator: asked once, the call succeeds", async () => {
    api = await startFakeApi();
    const tokens = makeTokens();
    let asked = 0;
    const { client } = await sharedSessionClient({
      partnerId: "acme",
      session: async () => {
        asked += 1;
        return { accessToken: tokens.AccessToken, idToken: tokens.IdToken };
      },
    });
    const results = await Promise.all([event(client), event(client)]);
    for (const r of results) expect(r.response.status).toBe(200);
    expect(asked).toBe(1);
  });

  it("a token store alone: signs in instead, and keeps the session in memory", async () => {
    api = await startFakeApi();
    const { lines, logger } = logged();
    const client = createAudienceClient({
      baseUrl: api.url,
      retry,
      logger,
      credentials,
      tokenStore: memoryTokenStore(),
    });
    expect((await event(client)).response.status).toBe(200);
    expect((await event(client)).response.status).toBe(200);
    expect(api.signIns()).toBe(1);
    expectNoSecret(lines, [credentials.password, ...api.issued]);
  });

  it("a later need tries the load again, once per need, never in a loop", async () => {
    api = await startFakeApi();
    let calls = 0;
    api.route((_req, res) => (++calls === 2 ? json(res, 401, { message: "token revoked" }) : json(res, 200, {})));
    const { client } = await sharedSessionClient();
    expect((await event(client)).response.status).toBe(200);
    const settled = async (): Promise<number> => {
      await new Promise((r) => setTimeout(r, 150));
      return loads.tried;
    };
    // The sign-in's needs (the shared session, the store write) each tried once; then nothing more.
    const afterFirst = await settled();
    expect(await settled()).toBe(afterFirst);
    // The 401 is a need: the renewal asks for the shared session and writes what it got, each once.
    expect((await event(client)).response.status).toBe(200);
    const afterRenewal = await settled();
    expect(afterRenewal - afterFirst).toBeGreaterThanOrEqual(1);
    expect(afterRenewal - afterFirst).toBeLessThanOrEqual(2);
    expect(await settled()).toBe(afterRenewal);
    expect(api.refreshes()).toBe(1);
  });
});
