/**
 * create-client.ts (the up-front bundle stays small): the engine (session, transport, openapi-fetch,
 * guards) is a lazily loaded module. Each test starts from a fresh module registry, so the client
 * it creates first has no engine yet: its synchronous methods must answer as today's client does,
 * what it is asked to change must be applied in order, and nothing is sent before the first call.
 */
import type { Middleware } from "openapi-fetch";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json, type RecordingServer, startRecordingServer } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

type Index = typeof import("../../src/index.ts");

let servers: (RecordingServer | FakeApi)[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});
beforeEach(() => {
  vi.resetModules();
});

/** The package's entry from a fresh module registry: its engine is not loaded yet. */
const freshIndex = (): Promise<Index> => import("../../src/index.ts");
/** Waits until the engine module is loaded in the current registry (without calling anything). */
const engineLoaded = async (): Promise<void> => {
  await import("../../src/engine.ts");
  await new Promise((resolve) => setTimeout(resolve, 0));
};
const credentials = { username: "ops@acme.test", password: "pw-lazy-engine" };

describe("a client before its engine has loaded", () => {
  it("answers its synchronous methods as the loaded client does, and sends nothing", async () => {
    const server = await startRecordingServer();
    servers.push(server);
    const { createAudienceClient } = await freshIndex();
    const client = createAudienceClient({ baseUrl: server.url, credentials, partnerId: "acme", maxConcurrency: 6 });
    const handle = client.setupProcess("e-1");
    const before = {
      rateState: client.rateState(),
      concurrency: client.concurrency(),
      partnerId: client.partnerId(),
      sessionStats: client.sessionStats(),
      sent: client.hasSentClientCampaignStatus("e-1"),
      state: handle.state,
    };
    await engineLoaded();
    const after = {
      rateState: client.rateState(),
      concurrency: client.concurrency(),
      partnerId: client.partnerId(),
      sessionStats: client.sessionStats(),
      sent: client.hasSentClientCampaignStatus("e-1"),
      state: handle.state,
    };
    expect(before).toEqual(after);
    expect(before.rateState).toMatchObject({ partnerId: "acme", inFlight: 0, concurrencyLimit: 6, pace: null });
    expect(client.setupProcess("e-1")).toBe(handle);
    expect(server.requests).toHaveLength(0);
  });

  it("checks useSession and useCredentials at once, and applies them in order before the first call", async () => {
    const api = await startFakeApi();
    servers.push(api);
    const { createAudienceClient } = await freshIndex();
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    expect(() => client.useSession({} as never)).toThrow(TypeError);
    expect(() => client.useCredentials({ username: "x" } as never)).toThrow(TypeError);
    const tokens = makeTokens();
    client.useSession({ accessToken: tokens.AccessToken, idToken: tokens.IdToken });
    const first = client.GET("/events/", {});
    expect((await first).response.status).toBe(200);
    expect(api.signIns()).toBe(0);
    expect(api.calls()[0]?.headers.authorization).toBe(`Bearer ${tokens.AccessToken}`);

    vi.resetModules();
    const fresh = await freshIndex();
    const other = fresh.createAudienceClient({ baseUrl: api.url, session: { accessToken: tokens.AccessToken } });
    other.useCredentials({ username: "second@acme.test", password: "pw-second" });
    await other.GET("/events/", {});
    expect(api.signIns()).toBe(1);
    expect(JSON.parse(api.requests.find((r) => r.path === "/auth")?.body ?? "{}")).toMatchObject({
      username: "second@acme.test",
    });
    expect(other.sessionStats().signIns).toBe(1);
  });

  it("registers and ejects middleware in order", async () => {
    const server = await startRecordingServer();
    servers.push(server);
    const { createAudienceClient } = await freshIndex();
    const client = createAudienceClient({
      baseUrl: server.url,
      partnerId: "acme",
      session: { accessToken: "token-lazy-mw" },
    });
    const seen: string[] = [];
    const kept: Middleware = { onRequest: () => void seen.push("kept") };
    const ejected: Middleware = { onRequest: () => void seen.push("ejected") };
    client.use(kept, ejected);
    client.eject(ejected);
    await client.GET("/events/", {});
    expect(seen).toEqual(["kept"]);
  });

  it("gives setupProcess(eid) its handle at once; its calls run once the engine is built", async () => {
    const server = await startRecordingServer((req, res) =>
      req.path === "/setup_processes/e-2" ? json(res, 404, { message: "none" }) : json(res, 200, {}),
    );
    servers.push(server);
    const { createAudienceClient } = await freshIndex();
    const client = createAudienceClient({
      baseUrl: server.url,
      partnerId: "acme",
      session: { accessToken: "token-lazy-setup" },
    });
    const handle = client.setupProcess("e-2");
    expect(handle.eid).toBe("e-2");
    expect(handle.state).toBe("unknown");
    void handle.autosave({} as never); // ignoring an autosave's promise is safe, as before
    await expect(handle.load()).resolves.toBeUndefined();
    expect(handle.state).toBe("none");
    expect(client.setupProcess("e-2")).toBe(handle);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /setup_processes/e-2"]);
  });

  it("runs what was asked before the load before what is asked after it", async () => {
    const server = await startRecordingServer((req, res) => json(res, 200, req.body ? JSON.parse(req.body) : {}));
    servers.push(server);
    const { createAudienceClient } = await freshIndex();
    const client = createAudienceClient({
      baseUrl: server.url,
      partnerId: "acme",
      session: { accessToken: "token-order" },
    });
    const handle = client.setupProcess("e-3");
    const first = handle.update({ eid: "e-3", name: "first" } as never);
    await import("../../src/engine.ts"); // loaded, while the first update may still wait for its turn
    const second = handle.update({ eid: "e-3", name: "second" } as never);
    await Promise.allSettled([first, second]);
    await handle.flush();
    const puts = server.requests.filter((r) => r.method === "PUT").map((r) => JSON.parse(r.body).name);
    expect(puts.at(-1)).toBe("second");
  });

  it("shares the partner's state with the other clients of the process, made before or after the load", async () => {
    const held: (() => void)[] = [];
    const server = await startRecordingServer((_req, res) => void held.push(() => json(res, 200, {})));
    servers.push(server);
    const { createAudienceClient } = await freshIndex();
    const options = { baseUrl: server.url, partnerId: "acme", session: { accessToken: "token-lazy-share" } };
    const first = createAudienceClient(options);
    const second = createAudienceClient(options);
    const calls = [1, 2, 3].map((i) => first.GET("/events/{eid}", { params: { path: { eid: `e-${i}` } } }));
    await vi.waitFor(() => expect(server.inFlight()).toBe(3));
    expect(second.concurrency()).toEqual({ limit: 8, active: 3, queued: 0 });
    expect(createAudienceClient(options).rateState().inFlight).toBe(3);
    for (const release of held) release();
    await Promise.all(calls);
  });

  it("asks the coordinator for the group's session at creation: its refusal throws there, as before", async () => {
    const { createAudienceClient } = await freshIndex();
    const coordinator = {
      partner: () => {
        throw new Error("not reached");
      },
      session: () => {
        throw new TypeError("no shared session here");
      },
    };
    expect(() =>
      createAudienceClient({ baseUrl: "http://127.0.0.1:9/api/v3", credentials, coordinator: coordinator as never }),
    ).toThrow("no shared session here");
  });

  it("throws the classes of the entry from a call made before the load", async () => {
    const server = await startRecordingServer();
    servers.push(server);
    const { createAudienceClient, ValidationError, AudienceError } = await freshIndex();
    const client = createAudienceClient({ baseUrl: server.url, session: { accessToken: "token-lazy-errors" } });
    const failed = await client.GET("/events/{eid}", { params: { path: { eid: "" } } }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ValidationError);
    expect(failed).toBeInstanceOf(AudienceError);
    expect(server.requests).toHaveLength(0);
  });
});

describe("client.config is the client's, read-only: a URL in it is a copy", () => {
  // A URL cannot be frozen. An app that builds a link from the client's base address in place
  // (`const u = client.config.baseUrl; u.port = …`) must not move where the client signs in.
  it.each([
    ["before the first call (the engine not loaded)", false],
    ["after the first call", true],
  ])(
    "an edit of config.baseUrl or config.mediaUrl %s moves no call, and no password, to that origin",
    async (_when, warm) => {
      const { createAudienceClient, uploadMedia } = await freshIndex();
      const api = await startFakeApi();
      api.route((_req, res) => json(res, 200, { from: "api" }));
      const elsewhere = await startRecordingServer((_req, res) => json(res, 500, {}));
      servers.push(api, elsewhere);
      const client = createAudienceClient({ baseUrl: api.url, credentials, retry: { maxAttempts: 1 } });
      if (warm) await client.GET("/events/{eid}", { params: { path: { eid: "e0" } } });
      const port = new URL(elsewhere.url).port;
      client.config.baseUrl.port = port;
      client.config.mediaUrl.port = port;
      const read = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
      expect(read.data).toEqual({ from: "api" });
      await uploadMedia(client, new TextEncoder().encode("GIF89a"), { filename: "a.gif", contentType: "image/gif" });
      expect(elsewhere.requests).toEqual([]);
      expect(String(client.config.baseUrl)).toContain(`:${port}/`); // the app's own copy, as it edited it
    },
  );
});
