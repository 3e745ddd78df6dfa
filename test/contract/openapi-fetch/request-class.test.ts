/**
 * openapi-fetch's contract through the client, family 1: a call's own `Request` class.
 * openapi-fetch builds its Request with the `Request` option (the client's, or the call's own),
 * and that is the Request its middleware and its `fetch` receive. Through the client, the class
 * given is the class of every Request that reaches `fetch` — the `fetch` option, a call's own
 * `fetch` and the runtime's fetch alike, on every attempt — and of the Request middleware gets.
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
const params = { path: { eid: "evt-1" } };

/** A caller's own Request class (a polyfill, an instrumented Request, a framework's). */
class TaggedRequest extends Request {
  readonly tag = "tagged";
}

/** A `fetch` that records what it receives and sends it to the server. */
function recordingFetch(seen: Request[]): (request: Request) => Promise<Response> {
  return async (request) => {
    seen.push(request);
    return globalThis.fetch(request);
  };
}

function expectTagged(request: Request | undefined): void {
  expect(request).toBeInstanceOf(TaggedRequest);
  expect((request as TaggedRequest).tag).toBe("tagged");
  // Still the client's request: its own headers are on it.
  expect(request?.headers.get("authorization")).toBe(`Bearer ${tokens.AccessToken}`);
  expect(request?.headers.get("x-preferred-partner-id")).toBe("partner-id-acme");
}

describe("a call's own Request class reaches fetch", () => {
  it("the fetch option gets an instance of it, on every attempt", async () => {
    let n = 0;
    server.handle((_req, res) => (++n < 3 ? json(res, 503, {}) : json(res, 200, { id: "evt-1" })));
    const seen: Request[] = [];
    const client = createAudienceClient({
      baseUrl: server.url,
      session,
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
      fetch: recordingFetch(seen),
    });
    const { data } = await client.GET("/events/{eid}", { params, Request: TaggedRequest });
    expect(data).toEqual({ id: "evt-1" });
    expect(seen).toHaveLength(3);
    for (const request of seen) expectTagged(request);
  });

  it("a call's own fetch gets an instance of it", async () => {
    const seen: Request[] = [];
    const client = createAudienceClient({ baseUrl: server.url, session });
    const { data } = await client.GET("/events/{eid}", { params, Request: TaggedRequest, fetch: recordingFetch(seen) });
    expect(data).toEqual({ id: "evt-1" });
    expect(seen).toHaveLength(1);
    expectTagged(seen[0]);
  });

  it("the runtime's fetch gets an instance of it (not a URL and an init)", async () => {
    const original = globalThis.fetch;
    const inputs: unknown[] = [];
    globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
      inputs.push(input);
      return original(input, init);
    }) as typeof fetch;
    try {
      const client = createAudienceClient({ baseUrl: server.url, session });
      const { data } = await client.GET("/events/{eid}", { params, Request: TaggedRequest });
      expect(data).toEqual({ id: "evt-1" });
    } finally {
      globalThis.fetch = original;
    }
    expect(inputs).toHaveLength(1);
    expectTagged(inputs[0] as Request);
  });

  it("a middleware gets an instance of it, and so does fetch after it", async () => {
    const seen: Request[] = [];
    const inMiddleware: Request[] = [];
    const client = createAudienceClient({ baseUrl: server.url, session, fetch: recordingFetch(seen) });
    client.use({ onRequest: ({ request }) => void inMiddleware.push(request) });
    await client.GET("/events/{eid}", { params, Request: TaggedRequest });
    expect(inMiddleware[0]).toBeInstanceOf(TaggedRequest);
    expectTagged(seen[0]);
  });

  it("a Request of its own class that a middleware returns goes on to fetch in that class", async () => {
    const seen: Request[] = [];
    const client = createAudienceClient({ baseUrl: server.url, session, fetch: recordingFetch(seen) });
    client.use({ onRequest: ({ request }) => new TaggedRequest(request) });
    const { data } = await client.GET("/events/{eid}", { params });
    expect(data).toEqual({ id: "evt-1" });
    expectTagged(seen[0]);
  });

  it("a call without one gets the runtime's Request", async () => {
    const seen: Request[] = [];
    const client = createAudienceClient({ baseUrl: server.url, session, fetch: recordingFetch(seen) });
    await client.GET("/events/{eid}", { params });
    expect(seen[0]).toBeInstanceOf(Request);
    expect(seen[0]).not.toBeInstanceOf(TaggedRequest);
  });
});

describe("the client's Request option", () => {
  it("is the class of what fetch and middleware get; a call's own class wins", async () => {
    class CallRequest extends Request {}
    const seen: Request[] = [];
    const inMiddleware: Request[] = [];
    const client = createAudienceClient({
      baseUrl: server.url,
      session,
      Request: TaggedRequest,
      fetch: recordingFetch(seen),
    });
    await client.GET("/events/{eid}", { params });
    expectTagged(seen[0]);
    client.use({ onRequest: ({ request }) => void inMiddleware.push(request) });
    await client.GET("/events/{eid}", { params });
    expect(inMiddleware[0]).toBeInstanceOf(TaggedRequest);
    expectTagged(seen[1]);
    await client.GET("/events/{eid}", { params, Request: CallRequest });
    expect(inMiddleware[1]).toBeInstanceOf(CallRequest);
    expect(seen[2]).toBeInstanceOf(CallRequest);
  });

  it("is refused by name when it is not a constructor", () => {
    expect(() =>
      createAudienceClient({ baseUrl: server.url, session, Request: "Request" as unknown as typeof Request }),
    ).toThrow(/Request/);
  });
});
