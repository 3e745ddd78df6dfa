/**
 * src/transport/send-attempt.ts: how an attempt reaches `fetch`, and the one shortcut. User code —
 * a `fetch` (the client's or a call's own, even the runtime's own function given as the option) or
 * a middleware — always gets real Requests; only when there is none does the runtime's fetch get
 * (url, init), and openapi-fetch build the client's plain OutgoingRequest. Against a real server.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAudienceClient } from "../../src/index.ts";
import { sendAttempt } from "../../src/transport/send-attempt.ts";
import { json, type RecordingServer, startRecordingServer } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

let server: RecordingServer;
const original = globalThis.fetch;
/** What the runtime's fetch was called with: (input, init). */
let runtimeCalls: unknown[][];
beforeEach(async () => {
  server = await startRecordingServer((_req, res) => json(res, 200, { id: "evt-1" }));
  runtimeCalls = [];
  globalThis.fetch = ((...args: Parameters<typeof fetch>) => {
    runtimeCalls.push(args);
    return original(...args);
  }) as typeof fetch;
});
afterEach(async () => {
  globalThis.fetch = original;
  await server.close();
});

const tokens = makeTokens();
const session = { accessToken: tokens.AccessToken, idToken: tokens.IdToken };
const params = { path: { eid: "evt-1" } };
class OwnRequest extends Request {}
const none = { fetch: undefined, requestClass: undefined, passThrough: undefined };

describe("sendAttempt", () => {
  const init = { method: "GET", headers: { accept: "application/json" } };

  it("with no fetch and no Request class: the runtime's fetch gets (url, init) — the shortcut", async () => {
    const response = await sendAttempt(`${server.url}/events/evt-1`, init, none, undefined, undefined);
    expect(response.status).toBe(200);
    expect(runtimeCalls).toEqual([[`${server.url}/events/evt-1`, init]]);
  });

  it("a fetch gets a Request, with the init fields a Request does not keep copied onto it", async () => {
    const seen: Request[] = [];
    const clientFetch = async (request: Request) => {
      seen.push(request);
      return original(request);
    };
    await sendAttempt(
      `${server.url}/events/evt-1`,
      init,
      { ...none, passThrough: { next: { revalidate: 5 } } },
      clientFetch,
      undefined,
    );
    expect(seen[0]).toBeInstanceOf(Request);
    expect((seen[0] as unknown as { next?: unknown }).next).toEqual({ revalidate: 5 });
    expect(runtimeCalls).toEqual([]);
  });

  it("a call's own fetch and class win over the client's", async () => {
    const byClient: Request[] = [];
    const byCall: Request[] = [];
    const clientFetch = async (request: Request) => {
      byClient.push(request);
      return original(request);
    };
    const callFetch = async (request: Request) => {
      byCall.push(request);
      return original(request);
    };
    class ClientRequest extends Request {}
    const call = { ...none, fetch: callFetch, requestClass: OwnRequest };
    await sendAttempt(`${server.url}/events/evt-1`, init, call, clientFetch, ClientRequest);
    expect(byClient).toEqual([]);
    expect(byCall[0]).toBeInstanceOf(OwnRequest);
  });

  it("a Request class alone: the runtime's fetch gets an instance of it", async () => {
    await sendAttempt(`${server.url}/events/evt-1`, init, none, undefined, OwnRequest);
    expect(runtimeCalls).toHaveLength(1);
    expect(runtimeCalls[0]?.[0]).toBeInstanceOf(OwnRequest);
  });
});

describe("through the client: user code always gets the real-Request path", () => {
  it("a fetch option that is the runtime's own fetch function still gets one Request per attempt", async () => {
    const client = createAudienceClient({ baseUrl: server.url, session, fetch: globalThis.fetch });
    const { data } = await client.GET("/events/{eid}", { params });
    expect(data).toEqual({ id: "evt-1" });
    expect(runtimeCalls).toHaveLength(1);
    expect(runtimeCalls[0]).toHaveLength(1);
    expect(runtimeCalls[0]?.[0]).toBeInstanceOf(Request);
  });

  it("with neither, the runtime's fetch gets (url, init)", async () => {
    const client = createAudienceClient({ baseUrl: server.url, session });
    await client.GET("/events/{eid}", { params });
    expect(typeof runtimeCalls[0]?.[0]).toBe("string");
  });

  it("a middleware registered after calls have used the shortcut gets real Requests", async () => {
    const client = createAudienceClient({ baseUrl: server.url, session });
    await client.GET("/events/{eid}", { params });
    const seen: unknown[] = [];
    client.use({ onRequest: ({ request }) => void seen.push(request) });
    const { data } = await client.GET("/events/{eid}", { params });
    expect(data).toEqual({ id: "evt-1" });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(Request);
  });

  it("a middleware registered twice and ejected once is still registered, and still gets real Requests", async () => {
    const client = createAudienceClient({ baseUrl: server.url, session });
    const seen: unknown[] = [];
    const middleware = { onRequest: ({ request }: { request: Request }) => void seen.push(request) };
    client.use(middleware);
    client.use(middleware);
    client.eject(middleware);
    await client.GET("/events/{eid}", { params });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(Request);
    client.eject(middleware);
    const { data } = await client.GET("/events/{eid}", { params });
    expect(data).toEqual({ id: "evt-1" });
    expect(seen).toHaveLength(1);
  });
});
