/**
 * openapi-fetch's contract through the client, family 1: what the caller gives a call
 * reaches the transport. openapi-fetch spreads a call's RequestInit fields into its Request and
 * copies the ones a Request lacks (Next.js `next`) onto it; through the client they reach the
 * `fetch` option's Request, the runtime's fetch, and a user's middleware alike — while the client
 * keeps its own headers (token, partner) on every attempt. Against a real local server.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAudienceClient } from "../../../src/index.ts";
import { json, type RecordingServer, startRecordingServer } from "../../support/recording-server.ts";
import { makeTokens } from "../../support/tokens.ts";

let server: RecordingServer;
beforeEach(async () => {
  server = await startRecordingServer((_req, res) => json(res, 200, { id: "evt-1" }));
});
afterEach(() => server.close());

const tokens = makeTokens();
const session = { accessToken: tokens.AccessToken, idToken: tokens.IdToken };
const init = {
  credentials: "include",
  cache: "no-store",
  keepalive: true,
  referrerPolicy: "no-referrer",
  priority: "high",
  next: { revalidate: 60, tags: ["events"] },
} as const;

function expectCarried(request: Request): void {
  expect(request.credentials).toBe("include");
  expect(request.cache).toBe("no-store");
  expect(request.keepalive).toBe(true);
  expect(request.referrerPolicy).toBe("no-referrer");
  expect((request as unknown as { next?: unknown }).next).toEqual({ revalidate: 60, tags: ["events"] });
  expect((request as unknown as { priority?: unknown }).priority).toBe("high");
  // The client's own headers are still there.
  expect(request.headers.get("authorization")).toBe(`Bearer ${tokens.AccessToken}`);
  expect(request.headers.get("x-preferred-partner-id")).toBe("partner-id-acme");
}

describe("RequestInit fields reach the transport", () => {
  it("through the fetch option: a real Request carrying them", async () => {
    const seen: Request[] = [];
    const client = createAudienceClient({
      baseUrl: server.url,
      session,
      fetch: async (request: Request) => {
        seen.push(request);
        return globalThis.fetch(request);
      },
    });
    const { data } = await client.GET("/events/{eid}", { params: { path: { eid: "evt-1" } }, ...init });
    expect(data).toEqual({ id: "evt-1" });
    expect(seen).toHaveLength(1);
    expectCarried(seen[0] as Request);
  });

  it("through the runtime's own fetch: the init it is called with", async () => {
    const original = globalThis.fetch;
    const inits: RequestInit[] = [];
    globalThis.fetch = ((input: RequestInfo | URL, requestInit?: RequestInit) => {
      if (requestInit) inits.push(requestInit);
      return original(input, requestInit);
    }) as typeof fetch;
    try {
      const client = createAudienceClient({ baseUrl: server.url, session });
      const { data } = await client.GET("/events/{eid}", { params: { path: { eid: "evt-1" } }, ...init });
      expect(data).toEqual({ id: "evt-1" });
    } finally {
      globalThis.fetch = original;
    }
    expect(inits).toHaveLength(1);
    expect(inits[0]).toMatchObject({ ...init, redirect: "manual" });
  });

  it("through a user's middleware (real Requests): still carried to fetch", async () => {
    const seen: Request[] = [];
    const client = createAudienceClient({
      baseUrl: server.url,
      session,
      fetch: async (request: Request) => {
        seen.push(request);
        return globalThis.fetch(request);
      },
    });
    const inMiddleware: Request[] = [];
    client.use({
      onRequest: ({ request }) => {
        inMiddleware.push(request);
      },
    });
    await client.GET("/events/{eid}", { params: { path: { eid: "evt-1" } }, ...init });
    expect(inMiddleware[0]).toBeInstanceOf(Request);
    expect(inMiddleware[0]?.credentials).toBe("include");
    expectCarried(seen[0] as Request);
  });

  it("every attempt carries them, retries included", async () => {
    let n = 0;
    server.handle((_req, res) => (++n < 3 ? json(res, 503, {}) : json(res, 200, { id: "evt-1" })));
    const seen: Request[] = [];
    const client = createAudienceClient({
      baseUrl: server.url,
      session,
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
      fetch: async (request: Request) => {
        seen.push(request);
        return globalThis.fetch(request);
      },
    });
    await client.GET("/events/{eid}", { params: { path: { eid: "evt-1" } }, ...init });
    expect(seen).toHaveLength(3);
    for (const request of seen) expectCarried(request);
  });
});
