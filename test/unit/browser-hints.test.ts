/**
 * In a browser, a failed fetch and a hidden x-request-id look like something
 * else unless the error says what usually causes them. The globals make the runtime browser-like
 * (the same check as the server-only guard); the real thing runs in Chromium in test/runtimes/.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAudienceClient, NetworkError, NotFoundError, unwrap } from "../../src/index.ts";

const baseUrl = "https://api.example.test/api/v3";
const session = { accessToken: "a-token" };
const partnerId = "partner-id-acme";
const once = { maxAttempts: 1 };

function inBrowserPage(origin: string): void {
  vi.stubGlobal("window", {});
  vi.stubGlobal("document", {});
  vi.stubGlobal("location", { origin });
  vi.stubGlobal("process", { ...process, versions: {} });
}

const failedFetch = async (): Promise<Response> => {
  throw new TypeError("Failed to fetch");
};
const notFound = async (): Promise<Response> => new Response('{"error":"error.not_found"}', { status: 404 });

describe("browser hints", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("a network failure in a browser names CORS as the usual cause", async () => {
    inBrowserPage("https://app.example.test");
    const client = createAudienceClient({ baseUrl, session, partnerId, fetch: failedFetch, retry: once });
    const error = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toMatch(/Failed to fetch \(in a browser usually CORS: .*X-Preferred-Partner-Id/);
  });

  it("outside a browser the same failure carries no browser hint", async () => {
    const client = createAudienceClient({ baseUrl, session, partnerId, fetch: failedFetch, retry: once });
    const error = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/Failed to fetch after 1 attempt/);
    expect((error as Error).message).not.toMatch(/CORS/);
  });

  it("an error response from another origin without x-request-id says the header must be exposed", async () => {
    inBrowserPage("https://app.example.test");
    const client = createAudienceClient({ baseUrl, session, partnerId, fetch: notFound, retry: once });
    const error = await Promise.resolve(client.GET("/events/{eid}", { params: { path: { eid: "e1" } } }))
      .then(unwrap)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as Error).message).toMatch(/Access-Control-Expose-Headers/);
  });

  it("no such hint for a same-origin call, nor outside a browser", async () => {
    inBrowserPage("https://api.example.test");
    const sameOrigin = createAudienceClient({ baseUrl, session, partnerId, fetch: notFound, retry: once });
    const first = await sameOrigin
      .GET("/events/{eid}", { params: { path: { eid: "e1" } } })
      .then(unwrap)
      .catch((e: unknown) => e);
    expect((first as Error).message).not.toMatch(/Access-Control-Expose-Headers/);
    vi.unstubAllGlobals();
    const server = createAudienceClient({ baseUrl, session, partnerId, fetch: notFound, retry: once });
    const second = await server
      .GET("/events/{eid}", { params: { path: { eid: "e1" } } })
      .then(unwrap)
      .catch((e: unknown) => e);
    expect(second).toBeInstanceOf(NotFoundError);
    expect((second as Error).message).not.toMatch(/Access-Control-Expose-Headers/);
  });
});
