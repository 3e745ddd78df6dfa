/**
 * The request path's plain attempt descriptions (src/transport/outgoing.ts): bodies resent as
 * given on every attempt, one Request per attempt for a custom fetch, and a user's middleware
 * still seeing real Requests, with the data parsed the same way.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createAudienceClient } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json } from "../support/recording-server.ts";

let api: FakeApi;
afterEach(() => api?.close());

const credentials = { username: "ops@acme.test", password: "pw-request-path" };
const fast = { baseDelayMs: 1, maxDelayMs: 5, rateLimitDelayMs: [1, 3] as const };

describe("request path", () => {
  it("resends a JSON body byte for byte on every attempt", async () => {
    api = await startFakeApi();
    let n = 0;
    api.route((_req, res) => (++n < 3 ? json(res, 503, {}) : json(res, 200, { ok: true })));
    const client = createAudienceClient({ baseUrl: api.url, credentials, retry: fast });
    const body = { goal: "ROAS" as const, total_budget: 1200 };
    const result = await client.PUT("/setup_processes/{eid}", { params: { path: { eid: "e1" } }, body });
    expect(result.response.status).toBe(200);
    const bodies = api.calls().map((r) => r.body);
    expect(bodies).toHaveLength(3);
    expect(new Set(bodies)).toEqual(new Set([JSON.stringify(body)]));
  });

  it("hands a custom fetch one Request per attempt, carrying the attempt's signal and headers", async () => {
    api = await startFakeApi();
    const seen: Request[] = [];
    const client = createAudienceClient({
      baseUrl: api.url,
      credentials,
      fetch: (request) => {
        seen.push(request);
        return fetch(request);
      },
    });
    const { data } = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    expect(data).toEqual({ ok: true });
    const call = seen.find((r) => r.url.endsWith("/events/e1"));
    expect(call).toBeInstanceOf(Request);
    expect(call?.headers.get("authorization")).toMatch(/^Bearer /);
    expect(call?.headers.get("x-preferred-partner-id")).toBe("partner-id-acme");
    expect(call?.signal).toBeInstanceOf(AbortSignal);
    expect(call?.redirect).toBe("manual");
  });

  it("a user's middleware sees real Requests; data and errors come back as without it", async () => {
    api = await startFakeApi();
    api.route((req, res) =>
      req.path === "/events/missing"
        ? json(res, 404, { code: "error.not_found" })
        : json(res, 200, { id: "e1", tag: req.headers["x-trace"] }),
    );
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    const requests: unknown[] = [];
    client.use({
      onRequest({ request }) {
        requests.push(request);
        request.headers.set("x-trace", "t-1");
        return request;
      },
    });
    const ok = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    expect(ok.data).toEqual({ id: "e1", tag: "t-1" });
    const missing = await client.GET("/events/{eid}", { params: { path: { eid: "missing" } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toEqual({ code: "error.not_found" });
    expect(requests.every((r) => r instanceof Request)).toBe(true);
  });

  it("parseAs other than json is left to openapi-fetch", async () => {
    api = await startFakeApi();
    api.route((_req, res) => json(res, 200, { id: "e1" }));
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    const { data } = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } }, parseAs: "text" });
    expect(data).toBe(JSON.stringify({ id: "e1" }));
  });
});
