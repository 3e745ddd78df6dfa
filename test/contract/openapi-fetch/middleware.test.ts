/**
 * openapi-fetch's own middleware tests (packages/openapi-fetch/test/middleware/middleware.test.ts
 * at openapi-fetch@0.17.0), rewritten to run against createAudienceClient and a real local server.
 * Where the client deliberately differs (README "Differences from openapi-fetch"), the test says
 * so and asserts the difference: errors thrown by `fetch` reach onError as the client's typed
 * NetworkError, after the retries; `options.fetch` is the client's transport; the client's own
 * `Authorization` and partner header are set after middleware, on every attempt.
 */
import type { Middleware } from "openapi-fetch";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAudienceClient, NetworkError } from "../../../src/index.ts";
import { json, type RecordingServer, startRecordingServer } from "../../support/recording-server.ts";
import { makeTokens } from "../../support/tokens.ts";

let server: RecordingServer;
beforeEach(async () => {
  server = await startRecordingServer((_req, res) => json(res, 200, { id: "evt-1" }, { foo: "bar" }));
});
afterEach(() => server.close());

const tokens = makeTokens();
const session = { accessToken: tokens.AccessToken, idToken: tokens.IdToken };
const params = { path: { eid: "evt-1" } };
const newClient = (extra: { fetch?: (request: Request) => Promise<Response> } = {}) =>
  createAudienceClient({ baseUrl: server.url, session, retry: { maxAttempts: 1 }, ...extra });
/** A `fetch` option that fails before anything is sent. */
const failingFetch = (error: Error) => async (): Promise<Response> => {
  throw error;
};

describe("what each hook is given", () => {
  it("an id per request, the same in onRequest and onResponse, different across requests", async () => {
    const client = newClient();
    const requestIds: string[] = [];
    const responseIds: string[] = [];
    client.use({
      onRequest: ({ id }) => void requestIds.push(id),
      onResponse: ({ id }) => void responseIds.push(id),
    });
    for (let i = 0; i < 4; i++) await client.GET("/events/{eid}", { params });
    expect(responseIds).toEqual(requestIds);
    expect(new Set(requestIds).size).toBe(4);
  });

  it("the schema path, the params as given, and the options (baseUrl without its trailing slash, parseAs)", async () => {
    const client = createAudienceClient({ baseUrl: `${server.url}/`, session });
    const seen: Array<{ schemaPath: string; params: unknown; baseUrl: string; parseAs: string }> = [];
    client.use({
      onRequest: ({ schemaPath, params: given, options }) =>
        void seen.push({ schemaPath, params: given, baseUrl: options.baseUrl, parseAs: options.parseAs }),
    });
    const query = { fields: "id" };
    await client.GET("/events/{eid}", { params: { ...params, query } as typeof params });
    await client.GET("/events/{eid}", { params, parseAs: "text" });
    expect(seen).toEqual([
      { schemaPath: "/events/{eid}", params: { ...params, query }, baseUrl: server.url, parseAs: "json" },
      { schemaPath: "/events/{eid}", params, baseUrl: server.url, parseAs: "text" },
    ]);
  });

  it("a call's baseUrl in options.baseUrl", async () => {
    const client = newClient();
    let baseUrl = "";
    client.use({
      onRequest: ({ options }) => {
        baseUrl = options.baseUrl;
      },
    });
    await client.GET("/events/{eid}", { params, baseUrl: `${server.url}/` });
    expect(baseUrl).toBe(server.url);
  });

  it("onResponse gets the Request that was sent (a real Request), with the same id and schema path", async () => {
    const client = newClient();
    const seen: Array<{ request: Request; id: string; schemaPath: string }> = [];
    let requestId = "";
    client.use({
      onRequest: ({ id }) => {
        requestId = id;
      },
      onResponse: ({ request, id, schemaPath }) => void seen.push({ request, id, schemaPath }),
    });
    await client.GET("/events/{eid}", { params });
    expect(seen[0]?.request).toBeInstanceOf(Request);
    expect(seen[0]?.request.url).toBe(`${server.url}/events/evt-1`);
    expect(seen[0]).toMatchObject({ id: requestId, schemaPath: "/events/{eid}" });
  });

  it("onError gets the request, id, schema path, params and options too", async () => {
    const client = newClient({ fetch: failingFetch(new Error("refused")) });
    const seen: Array<Record<string, unknown>> = [];
    let requestId = "";
    client.use({
      onRequest: ({ id }) => {
        requestId = id;
      },
      onError: ({ request, id, schemaPath, params: given, options, error }) =>
        void seen.push({ request, id, schemaPath, params: given, baseUrl: options.baseUrl, error }),
    });
    await expect(client.GET("/events/{eid}", { params })).rejects.toBeInstanceOf(NetworkError);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.request).toBeInstanceOf(Request);
    expect(seen[0]).toMatchObject({ id: requestId, schemaPath: "/events/{eid}", params, baseUrl: server.url });
  });

  it("options.fetch is the client's transport: a middleware sending through it gets the client's steps", async () => {
    const client = newClient();
    let viaOptions: Response | undefined;
    client.use({
      async onResponse({ request, options }) {
        if (request.headers.get("x-again")) return;
        const again = new Request(request, { headers: { "x-again": "1" } });
        viaOptions = await options.fetch(again);
      },
    });
    await client.GET("/events/{eid}", { params });
    expect(viaOptions?.status).toBe(200);
    expect(server.requests).toHaveLength(2);
    // Deliberate difference: it is not the bare `fetch` option; the token and partner are set on it.
    expect(server.requests[1]?.headers["x-again"]).toBe("1");
    expect(server.requests[1]?.headers.authorization).toBe(`Bearer ${tokens.AccessToken}`);
  });
});

describe("order of execution", () => {
  it("onRequest in the order registered (the client's, then the call's); onResponse in reverse", async () => {
    const client = newClient();
    const steps: string[] = [];
    /** Sets header `step` to its name on the way out and back, checking the step before it. */
    const step = (name: string, after: string | null, before: string | null): Middleware => ({
      onRequest({ request }) {
        expect(request.headers.get("step")).toBe(after);
        steps.push(`request ${name}`);
        request.headers.set("step", name);
        return request;
      },
      onResponse({ response }) {
        expect(response.headers.get("step")).toBe(before);
        steps.push(`response ${name}`);
        const headers = new Headers(response.headers);
        headers.set("step", name);
        return new Response(response.body, { status: response.status, headers });
      },
    });
    client.use(step("A", null, "B"), step("B", "A", "C"));
    client.use(step("C", "B", "D"));
    const { data, response } = await client.GET("/events/{eid}", { params, middleware: [step("D", "C", null)] });
    expect(server.requests[0]?.headers.step).toBe("D");
    expect(response.headers.get("step")).toBe("A");
    expect(data).toEqual({ id: "evt-1" });
    expect(steps).toEqual([
      "request A",
      "request B",
      "request C",
      "request D",
      "response D",
      "response C",
      "response B",
      "response A",
    ]);
  });

  it("onError in reverse order: each gets the error the one after it returned, and a Response ends it", async () => {
    const modified = new Error("modified");
    const replacement = Response.json({ id: "from-onError" });
    const client = newClient({ fetch: failingFetch(new Error("refused")) });
    const seen: unknown[] = [];
    client.use({
      onError({ error }) {
        seen.push(error);
        return replacement;
      },
    });
    client.use({
      onError({ error }) {
        seen.push(error);
        return modified;
      },
    });
    const { data, response } = await client.GET("/events/{eid}", { params });
    expect(response).toBe(replacement);
    expect(data).toEqual({ id: "from-onError" });
    expect(seen[0]).toBeInstanceOf(NetworkError);
    expect(seen[1]).toBe(modified);
  });
});

describe("retries (a deliberate difference: attempts are inside the call)", () => {
  it("each hook runs once per call; the attempts are retried beneath it", async () => {
    let n = 0;
    server.handle((_req, res) => (++n < 3 ? json(res, 503, {}) : json(res, 200, { id: "evt-1" })));
    const client = createAudienceClient({ baseUrl: server.url, session, retry: { baseDelayMs: 1, maxDelayMs: 2 } });
    const hooks: string[] = [];
    client.use({ onRequest: () => void hooks.push("onRequest"), onResponse: () => void hooks.push("onResponse") });
    const { data } = await client.GET("/events/{eid}", { params });
    expect(data).toEqual({ id: "evt-1" });
    expect(server.requests).toHaveLength(3);
    expect(hooks).toEqual(["onRequest", "onResponse"]);
  });
});

describe("changing the request and the response", () => {
  it("onRequest may return another Request: that is what is sent", async () => {
    const client = newClient();
    client.use({
      onRequest: ({ request }) =>
        new Request(`${server.url}/events/evt-2`, {
          method: "OPTIONS",
          headers: { foo: "bar" },
          signal: request.signal,
        }),
    });
    await client.GET("/events/{eid}", { params });
    expect(server.requests[0]).toMatchObject({ method: "OPTIONS", path: "/events/evt-2" });
    expect(server.requests[0]?.headers.foo).toBe("bar");
  });

  it("onResponse may return another Response: its status, body and headers are the result", async () => {
    const client = newClient();
    client.use({
      async onResponse({ response }) {
        const body = (await response.json()) as Record<string, unknown>;
        const headers = new Headers(response.headers);
        headers.set("middleware", "value");
        return new Response(JSON.stringify({ ...body, seen: true }), { status: 201, headers });
      },
    });
    const { data, response } = await client.GET("/events/{eid}", { params });
    expect(data).toEqual({ id: "evt-1", seen: true });
    expect(response.status).toBe(201);
    expect(response.headers.get("foo")).toBe("bar"); // the server's header survives
    expect(response.headers.get("middleware")).toBe("value");
  });

  it("a hook that returns nothing changes nothing", async () => {
    const client = newClient();
    client.use({ onRequest: () => undefined, onResponse: () => undefined });
    const { data } = await client.GET("/events/{eid}", { params });
    expect(data).toEqual({ id: "evt-1" });
  });

  it("an ejected middleware is not called", async () => {
    const client = newClient();
    let called = false;
    const refusing: Middleware = {
      onRequest() {
        called = true;
        throw new Error("oops");
      },
    };
    client.use(refusing);
    client.eject(refusing);
    const { data } = await client.GET("/events/{eid}", { params });
    expect(data).toEqual({ id: "evt-1" });
    expect(called).toBe(false);
  });
});

describe("a Response from onRequest or onError", () => {
  it("from onRequest: nothing is sent, later onRequest and every onResponse are skipped, it is the result", async () => {
    const client = newClient();
    const early = Response.json({ id: "from-onRequest" });
    const calls: string[] = [];
    client.use(
      { onRequest: () => early, onResponse: () => void calls.push("onResponse") },
      { onRequest: () => void calls.push("second onRequest") },
    );
    const { data, response } = await client.GET("/events/{eid}", { params });
    expect(response).toBe(early);
    expect(data).toEqual({ id: "from-onRequest" });
    expect(calls).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it("from a call's own middleware as well", async () => {
    const client = newClient();
    const early = Response.json({ id: "from-call" });
    const { response } = await client.GET("/events/{eid}", { params, middleware: [{ onRequest: () => early }] });
    expect(response).toBe(early);
    expect(server.requests).toHaveLength(0);
  });

  it("from onError: the result, with its body as data", async () => {
    const client = newClient({ fetch: failingFetch(new Error("refused")) });
    const replacement = Response.json({ id: "cached" });
    client.use({ onError: () => replacement });
    const { data, error, response } = await client.GET("/events/{eid}", { params });
    expect(response).toBe(replacement);
    expect(data).toEqual({ id: "cached" });
    expect(error).toBeUndefined();
  });
});

describe("errors (a deliberate difference: fetch's errors reach onError as NetworkError, after retries)", () => {
  it("returning nothing from onError: the call rejects with the error onError was given", async () => {
    const original = new TypeError("fetch failed");
    const client = newClient({ fetch: failingFetch(original) });
    let given: unknown;
    client.use({
      onError: ({ error }) => {
        given = error;
      },
    });
    const thrown = await client.GET("/events/{eid}", { params }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(NetworkError);
    expect(thrown).toBe(given);
    expect(String((thrown as NetworkError).cause)).toBe(String(original)); // redacted copy of it
  });

  it("returning an Error from onError: the call rejects with it", async () => {
    const modified = new Error("modified");
    const client = newClient({ fetch: failingFetch(new Error("refused")) });
    client.use({ onError: () => modified });
    await expect(client.GET("/events/{eid}", { params })).rejects.toBe(modified);
  });
});

describe("headers", () => {
  it("the call's headers reach middleware; what a middleware sets survives; the client's own are still sent", async () => {
    const client = newClient();
    const checks: string[] = [];
    client.use(
      {
        onRequest({ request }) {
          expect(request.headers.get("onFetch")).toBe("exists");
          request.headers.set("onRequest", "exists");
          return request;
        },
        onResponse({ request }) {
          expect(request.headers.get("onFetch")).toBe("exists");
          expect(request.headers.get("onRequest")).toBe("exists");
          checks.push("onResponse");
        },
      },
      {
        onRequest({ request }) {
          expect(request.headers.get("onFetch")).toBe("exists");
          expect(request.headers.get("onRequest")).toBe("exists");
          checks.push("second onRequest");
        },
      },
    );
    await client.GET("/events/{eid}", { params, headers: { onFetch: "exists" } });
    expect(checks).toEqual(["second onRequest", "onResponse"]);
    const sent = server.requests[0]?.headers;
    expect(sent?.onfetch).toBe("exists");
    expect(sent?.onrequest).toBe("exists");
    expect(sent?.authorization).toBe(`Bearer ${tokens.AccessToken}`);
    expect(sent?.["x-preferred-partner-id"]).toBe("partner-id-acme");
  });

  it("an Authorization a middleware sets is replaced by the client's (a deliberate difference: Section 5.5)", async () => {
    const client = newClient();
    client.use({
      onRequest({ request }) {
        request.headers.set("Authorization", "Bearer from-middleware");
        return request;
      },
    });
    await client.GET("/events/{eid}", { params });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${tokens.AccessToken}`);
  });
});

describe("the request body", () => {
  const body = { goal: "ROAS" as const, total_budget: 1200 };

  it("is readable by middleware (through a clone), and still sent", async () => {
    const client = newClient();
    const read: unknown[] = [];
    client.use({ onRequest: async ({ request }) => void read.push(await request.clone().json()) });
    await client.PUT("/setup_processes/{eid}", { params: { path: { eid: "e1" } }, body });
    expect(read).toEqual([body]);
    expect(server.requests[0]?.body).toBe(JSON.stringify(body));
  });

  it("a middleware may replace it: the new body is sent", async () => {
    const client = newClient();
    client.use({
      onRequest: async ({ request }) =>
        new Request(request, { body: JSON.stringify({ ...((await request.clone().json()) as object), tag: 1 }) }),
    });
    await client.PUT("/setup_processes/{eid}", { params: { path: { eid: "e1" } }, body });
    expect(JSON.parse(server.requests[0]?.body ?? "")).toEqual({ ...body, tag: 1 });
  });
});
