/**
 * openapi-fetch's testing guide (docs/openapi-fetch/testing.md at openapi-fetch@0.17.0) through
 * the client: the `fetch` option is the mock, it receives a Request, and the test reads it back.
 * Each test body is written once and run, unchanged, against bare openapi-fetch and against
 * createAudienceClient, so the client is held to what the guide's pattern does with openapi-fetch.
 *
 * Two edits to the guide's text, which bare openapi-fetch needs as much as the client (its
 * example fails on openapi-fetch 0.17 as printed): the mock returns a Response (a bare `vi.fn()`
 * returns undefined, which openapi-fetch cannot read), and the Request's url is absolute; the base URL ends
 * in the API's version segment, /api/v3, which the client requires.
 */
import createClient from "openapi-fetch";
import { describe, expect, it, vi } from "vitest";
import { createAudienceClient, NetworkError } from "../../../src/index.ts";
import type { ClientPaths } from "../../../src/types.ts";
import { makeTokens } from "../../support/tokens.ts";

const tokens = makeTokens();
const BASE_URL = "https://my-site.com/api/v3/";

type Factory = (
  fetch: (request: Request) => Promise<Response>,
) => Pick<ReturnType<typeof createClient<ClientPaths>>, "GET" | "PUT">;

const clients: Array<[string, Factory]> = [
  ["bare openapi-fetch", (fetch) => createClient<ClientPaths>({ baseUrl: BASE_URL, fetch })],
  [
    "createAudienceClient",
    (fetch) =>
      createAudienceClient({
        baseUrl: BASE_URL,
        fetch,
        session: { accessToken: tokens.AccessToken, idToken: tokens.IdToken },
      }),
  ],
];

describe.each(clients)("the testing guide's pattern, against %s", (_name, newClient) => {
  it("mocking requests: the fetch spy receives a Request whose url and body the test reads", async () => {
    const mockFetch = vi.fn(async (_request: Request) => Response.json({}));
    const client = newClient(mockFetch);

    const reqBody = { goal: "ROAS" as const, total_budget: 1200 };
    await client.PUT("/setup_processes/{eid}", { params: { path: { eid: "e1" } }, body: reqBody });

    expect(mockFetch).toHaveBeenCalledTimes(1);
    const req = mockFetch.mock.calls[0]?.[0] as Request;
    expect(req).toBeInstanceOf(Request);
    expect(req.method).toBe("PUT");
    expect(req.url).toBe("https://my-site.com/api/v3/setup_processes/e1");
    expect(req.headers.get("content-type")).toBe("application/json");
    expect(await req.json()).toEqual(reqBody);
  });

  it("mocking responses without msw: the fetch answers, the call returns its data", async () => {
    const rawData = { id: "evt-1", name: "Open Air" };
    const client = newClient(async (request) =>
      new URL(request.url).pathname === "/api/v3/events/evt-1"
        ? Response.json(rawData, { status: 200 })
        : Response.json({ detail: "not found" }, { status: 404 }),
    );

    const { data, error } = await client.GET("/events/{eid}", { params: { path: { eid: "evt-1" } } });
    expect(data).toEqual(rawData);
    expect(error).toBeUndefined();

    const missing = await client.GET("/events/{eid}", { params: { path: { eid: "evt-2" } } });
    expect(missing.data).toBeUndefined();
    expect(missing.error).toEqual({ detail: "not found" });
    expect(missing.response.status).toBe(404);
  });
});

describe("the guide's bare vi.fn() (returns undefined)", () => {
  it("fails at once with a typed NetworkError naming the fix (openapi-fetch fails too), not retried", async () => {
    const mockFetch = vi.fn();
    const client = createAudienceClient({
      baseUrl: BASE_URL,
      fetch: mockFetch,
      session: { accessToken: tokens.AccessToken, idToken: tokens.IdToken },
    });
    const error = await client
      .PUT("/setup_processes/{eid}", { params: { path: { eid: "e1" } }, body: { goal: "ROAS", total_budget: 1 } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(String(error)).toMatch(/fetch returned undefined, not a Response/);
    expect(mockFetch).toHaveBeenCalledTimes(1);
  });
});
