/**
 * openapi-fetch's contract through the client, families 2 and 3, on a real server:
 * middleware gets real Requests and can read the response body; a call's own `fetch` is its
 * transport (token, partner header, retries, redaction), not a bypass of the client.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAudienceClient, unwrap } from "../../../src/index.ts";
import { json, type RecordingServer, startRecordingServer } from "../../support/recording-server.ts";
import { makeTokens } from "../../support/tokens.ts";

let server: RecordingServer;
beforeEach(async () => {
  server = await startRecordingServer((_req, res) => json(res, 200, { id: "evt-1", name: "Open Air" }));
});
afterEach(() => server.close());

const tokens = makeTokens();
const session = { accessToken: tokens.AccessToken, idToken: tokens.IdToken };

describe("middleware (family 2)", () => {
  it("onResponse can read the body of a successful described call, and the call still gets its data", async () => {
    const client = createAudienceClient({ baseUrl: server.url, session });
    const bodies: unknown[] = [];
    client.use({
      async onResponse({ response }) {
        bodies.push(await response.clone().json());
      },
    });
    const { data, error } = await client.GET("/events/{eid}", { params: { path: { eid: "evt-1" } } });
    expect(error).toBeUndefined();
    expect(data).toEqual({ id: "evt-1", name: "Open Air" });
    expect(bodies).toEqual([{ id: "evt-1", name: "Open Air" }]);
  });

  it("a middleware may replace the response; its body is what the call returns", async () => {
    const client = createAudienceClient({ baseUrl: server.url, session });
    client.use({
      async onResponse({ response }) {
        const body = (await response.json()) as Record<string, unknown>;
        return new Response(JSON.stringify({ ...body, seen: true }), {
          status: 200,
          headers: { "content-type": "application/json" },
        });
      },
    });
    const { data } = await client.GET("/events/{eid}", { params: { path: { eid: "evt-1" } } });
    expect(data).toEqual({ id: "evt-1", name: "Open Air", seen: true });
  });

  it("a call's own middleware gets a real Request, and can read the body", async () => {
    const client = createAudienceClient({ baseUrl: server.url, session });
    const requests: unknown[] = [];
    const bodies: unknown[] = [];
    await client.GET("/events/{eid}", {
      params: { path: { eid: "evt-1" } },
      middleware: [
        {
          onRequest: ({ request }) => void requests.push(request),
          onResponse: async ({ response }) => void bodies.push(await response.clone().json()),
        },
      ],
    });
    expect(requests[0]).toBeInstanceOf(Request);
    expect(bodies).toEqual([{ id: "evt-1", name: "Open Air" }]);
  });
});

describe("a call's own fetch (family 3)", () => {
  it("receives a real Request with the token and partner header, once per attempt, retries included", async () => {
    let n = 0;
    server.handle((_req, res) => (++n < 3 ? json(res, 503, {}) : json(res, 200, { id: "evt-1" })));
    const client = createAudienceClient({ baseUrl: server.url, session, retry: { baseDelayMs: 1, maxDelayMs: 2 } });
    const seen: Request[] = [];
    const { data } = await client.GET("/events/{eid}", {
      params: { path: { eid: "evt-1" } },
      fetch: async (request: Request) => {
        seen.push(request);
        return globalThis.fetch(request);
      },
    });
    expect(data).toEqual({ id: "evt-1" });
    expect(seen).toHaveLength(3);
    for (const request of seen) {
      expect(request).toBeInstanceOf(Request);
      expect(request.headers.get("authorization")).toBe(`Bearer ${tokens.AccessToken}`);
      expect(request.headers.get("x-preferred-partner-id")).toBe("partner-id-acme");
    }
    expect(server.requests).toHaveLength(3);
  });

  it("its errors are the client's typed, redacted errors", async () => {
    const client = createAudienceClient({ baseUrl: server.url, session, retry: { maxAttempts: 1 } });
    const error = await client
      .GET("/events/{eid}", {
        params: { path: { eid: "evt-1" } },
        fetch: async () => {
          throw new TypeError(`connect refused while sending ${tokens.AccessToken}`);
        },
      })
      .then(unwrap)
      .catch((e: unknown) => e as Error);
    expect((error as Error).name).toBe("NetworkError");
    expect(JSON.stringify({ m: (error as Error).message, c: String((error as Error).cause) })).not.toContain(
      tokens.AccessToken,
    );
  });
});
