/**
 * openapi-fetch's testing guide, its msw half ("Mocking Responses", docs/openapi-fetch/testing.md
 * at openapi-fetch@0.17.0), through the client: msw's `setupServer` patches the global `fetch`,
 * `http.get(...)` answers with `HttpResponse.json(...)`, and the call returns that data. The
 * guide's test body runs unchanged against bare openapi-fetch and against createAudienceClient,
 * whose sign-in (POST /auth) is answered by an msw handler too: nothing here reaches a network.
 *
 * Edits to the guide's text: the base URL ends in the API's version segment, /api/v3, which the
 * client requires, on the reserved .test domain (a request that escaped msw would reach no real
 * host), and the paths are the description's; `onUnhandledRequest` is msw's `"error"`
 * (the guide throws from a function: the same outcome) plus a list of what msw did not handle,
 * checked empty after every test. One server per file: beforeAll listen, afterEach
 * resetHandlers, afterAll close, as the guide writes it.
 *
 * The guide notes that `server.listen` must come before `createClient`, since openapi-fetch keeps
 * the global `fetch` it finds then. The client looks the global `fetch` up at each attempt
 * (transport/send-attempt.ts), so one created before `listen` is intercepted as well (last test).
 */
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import createClient from "openapi-fetch";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createAudienceClient, NetworkError, NotFoundError, ServerError, unwrap } from "../../../src/index.ts";
import type { ClientPaths } from "../../../src/types.ts";
import { makeTokens } from "../../support/tokens.ts";

const BASE_URL = "https://my-site.test/api/v3";
const tokens = makeTokens();
const PARTNER = "partner-id-acme"; // the partner group of makeTokens' IdToken
const credentials = { username: "demo", password: "demo-password" };
/** Two attempts, a millisecond apart: a retried call ends at once. */
const retry = { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 };

/** Sign-in, as the API answers it (Section 5.1); kept through resetHandlers. */
const signIn = http.post(`${BASE_URL}/auth`, () => HttpResponse.json(tokens));

const server = setupServer(signIn);
/** Every request msw saw, and those no handler answered. */
const seen: string[] = [];
const unhandled: string[] = [];
server.events.on("request:start", ({ request }) => void seen.push(`${request.method} ${request.url}`));
server.events.on("request:unhandled", ({ request }) => void unhandled.push(`${request.method} ${request.url}`));

/** Created before `server.listen`: the guide's note says a bare openapi-fetch client would miss msw. */
const createdBeforeListen = createAudienceClient({ baseUrl: BASE_URL, credentials, retry });

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  const missed = unhandled.splice(0);
  seen.splice(0);
  expect(missed, "requests no msw handler answered").toEqual([]);
});
afterAll(() => server.close());

type Client = Pick<ReturnType<typeof createClient<ClientPaths>>, "GET" | "PUT">;

const clients: Array<[string, () => Client]> = [
  ["bare openapi-fetch", () => createClient<ClientPaths>({ baseUrl: BASE_URL })],
  ["createAudienceClient", () => createAudienceClient({ baseUrl: BASE_URL, credentials, retry })],
];

describe.each(clients)("the testing guide's msw examples, against %s", (_name, newClient) => {
  it("my API call: a mocked GET returns its JSON as data", async () => {
    const rawData = { id: "evt-1", name: "Open Air" };

    server.use(http.get(`${BASE_URL}/events/evt-1`, () => HttpResponse.json(rawData, { status: 200 })));

    const client = newClient();

    const { data, error } = await client.GET("/events/{eid}", { params: { path: { eid: "evt-1" } } });

    expect(data).toEqual(rawData);
    expect(error).toBeUndefined();
  });

  it("an error status: its body is the call's error, data is undefined", async () => {
    server.use(http.get(`${BASE_URL}/events/:eid`, () => HttpResponse.json({ detail: "not found" }, { status: 404 })));

    const { data, error, response } = await newClient().GET("/events/{eid}", {
      params: { path: { eid: "evt-2" } },
    });

    expect(data).toBeUndefined();
    expect(error).toEqual({ detail: "not found" });
    expect(response.status).toBe(404);
  });

  it("a request body asserted inside the handler", async () => {
    const reqBody = { goal: "ROAS" as const, total_budget: 1200 };
    server.use(
      http.put(`${BASE_URL}/setup_processes/:eid`, async ({ request, params }) => {
        expect(params.eid).toBe("e1");
        expect(request.headers.get("content-type")).toBe("application/json");
        expect(await request.json()).toEqual(reqBody);
        return HttpResponse.json({ eid: "e1", ...reqBody });
      }),
    );

    const { data, error } = await newClient().PUT("/setup_processes/{eid}", {
      params: { path: { eid: "e1" } },
      body: reqBody,
    });

    // A failed expect in the handler is msw's 500, so the call's result shows it too.
    expect(error).toBeUndefined();
    expect(data).toEqual({ eid: "e1", ...reqBody });
  });
});

describe("the client under msw: what the README promises on every call", () => {
  it("msw sees the sign-in, then the call with the bearer token and the partner header; nothing else", async () => {
    const received: Array<{ authorization: string | null; partner: string | null }> = [];
    server.use(
      http.get(`${BASE_URL}/events/:eid`, ({ request }) => {
        received.push({
          authorization: request.headers.get("authorization"),
          partner: request.headers.get("x-preferred-partner-id"),
        });
        return HttpResponse.json({ id: "evt-1", name: "Open Air" });
      }),
    );
    const client = createAudienceClient({ baseUrl: BASE_URL, credentials, retry });

    unwrap(await client.GET("/events/{eid}", { params: { path: { eid: "evt-1" } } }));
    unwrap(await client.GET("/events/{eid}", { params: { path: { eid: "evt-1" } } }));

    const expected = { authorization: `Bearer ${tokens.AccessToken}`, partner: PARTNER };
    expect(received).toEqual([expected, expected]);
    expect(seen).toEqual([`POST ${BASE_URL}/auth`, `GET ${BASE_URL}/events/evt-1`, `GET ${BASE_URL}/events/evt-1`]);
  });

  it("an error status: unwrap throws the typed error, with the status and the body", async () => {
    server.use(http.get(`${BASE_URL}/events/:eid`, () => HttpResponse.json({ detail: "not found" }, { status: 404 })));
    const client = createAudienceClient({ baseUrl: BASE_URL, credentials, retry });

    const error = await client
      .GET("/events/{eid}", { params: { path: { eid: "evt-2" } } })
      .then(unwrap)
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, body: { detail: "not found" } });
  });

  it("a 503 is retried (msw sees each attempt), then the ServerError", async () => {
    let attempts = 0;
    server.use(
      http.get(`${BASE_URL}/events/:eid`, () => {
        attempts++;
        return HttpResponse.json({ detail: "down" }, { status: 503 });
      }),
    );
    const client = createAudienceClient({ baseUrl: BASE_URL, credentials, retry });

    const result = await client.GET("/events/{eid}", { params: { path: { eid: "evt-1" } } });

    expect(attempts).toBe(retry.maxAttempts);
    expect(result.response.status).toBe(503);
    expect(() => unwrap(result)).toThrow(ServerError);
  });

  it("HttpResponse.error(): the call ends as the client's NetworkError after its retries", async () => {
    let attempts = 0;
    server.use(
      http.get(`${BASE_URL}/events/:eid`, () => {
        attempts++;
        return HttpResponse.error();
      }),
    );
    const client = createAudienceClient({ baseUrl: BASE_URL, credentials, retry });

    const started = performance.now();
    const error = await client.GET("/events/{eid}", { params: { path: { eid: "evt-1" } } }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(NetworkError);
    // The cause is what fetch threw, redacted (README: Differences from openapi-fetch).
    expect((error as NetworkError).cause).toMatchObject({ name: "TypeError", message: "Failed to fetch" });
    expect(attempts).toBe(retry.maxAttempts);
    expect(seen).toEqual([`POST ${BASE_URL}/auth`, `GET ${BASE_URL}/events/evt-1`, `GET ${BASE_URL}/events/evt-1`]);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("HttpResponse.error() against bare openapi-fetch: the call rejects with fetch's TypeError, one attempt", async () => {
    let attempts = 0;
    server.use(
      http.get(`${BASE_URL}/events/:eid`, () => {
        attempts++;
        return HttpResponse.error();
      }),
    );
    const client = createClient<ClientPaths>({ baseUrl: BASE_URL });

    const error = await client.GET("/events/{eid}", { params: { path: { eid: "evt-1" } } }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(TypeError);
    expect(attempts).toBe(1);
  });

  it("a request no handler answers is seen by onUnhandledRequest, and fails the call", async () => {
    const client = createAudienceClient({ baseUrl: BASE_URL, credentials, retry });
    const printed = vi.spyOn(console, "error").mockImplementation(() => undefined);

    const error = await client.GET("/events/{eid}", { params: { path: { eid: "evt-9" } } }).catch((e: unknown) => e);

    const messages = printed.mock.calls.map((args) => String(args[0]));
    printed.mockRestore();
    expect(error).toBeInstanceOf(NetworkError);
    expect(messages[0]).toMatch(/without a matching request handler/);
    // What afterEach would report; taken here, so this test passes.
    expect(unhandled.splice(0)).toEqual([`GET ${BASE_URL}/events/evt-9`, `GET ${BASE_URL}/events/evt-9`]);
  });

  it("a client created before server.listen is intercepted too (the global fetch is looked up per attempt)", async () => {
    server.use(http.get(`${BASE_URL}/events/:eid`, () => HttpResponse.json({ id: "evt-1", name: "Open Air" })));

    const { data } = await createdBeforeListen.GET("/events/{eid}", { params: { path: { eid: "evt-1" } } });

    expect(data).toEqual({ id: "evt-1", name: "Open Air" });
    expect(seen).toEqual([`POST ${BASE_URL}/auth`, `GET ${BASE_URL}/events/evt-1`]);
  });
});
