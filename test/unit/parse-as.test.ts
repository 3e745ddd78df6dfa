/**
 * openapi-fetch's `parseAs` is honoured: `text`,
 * `blob`, `arrayBuffer` and `stream` on a 2xx that is not JSON return the body, once, for typed
 * calls and for paths outside the description; `Content-Length: 0` gives undefined data and error,
 * as openapi-fetch does.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createAudienceClient } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";

let api: FakeApi;
afterEach(() => api?.close());

const credentials = { username: "ops@acme.test", password: "pw-parse-as-secret" };
const CSV = "eid,sold\ne1,12\n";

async function csvServer() {
  api = await startFakeApi();
  api.route((_req, res) => {
    res.writeHead(200, { "content-type": "text/csv", "x-request-id": "req-csv" });
    res.end(CSV);
  });
  return createAudienceClient({ baseUrl: api.url, credentials, retry: { baseDelayMs: 1, maxDelayMs: 2 } });
}

describe("parseAs on a 2xx that is not JSON", () => {
  it.each([
    ["text", async (data: unknown) => data],
    ["blob", async (data: unknown) => (data as Blob).text()],
    ["arrayBuffer", async (data: unknown) => new TextDecoder().decode(data as ArrayBuffer)],
    ["stream", async (data: unknown) => new Response(data as ReadableStream).text()],
  ] as const)("a typed call with parseAs %s returns the body, sent once", async (parseAs, read) => {
    const client = await csvServer();
    const result = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } }, parseAs });
    expect(result.response.status).toBe(200);
    expect(await read(result.data)).toBe(CSV);
    expect(api.calls()).toHaveLength(1); // was 5 attempts and a NetworkError
  });

  it("a path outside the description with parseAs text returns the body", async () => {
    const client = await csvServer();
    const result = await client.GET("/exports/sales.csv" as never, { parseAs: "text" } as never);
    expect((result as { data: unknown }).data).toBe(CSV);
    expect(api.calls()).toHaveLength(1);
  });

  it("with the default parseAs (json), a described operation answering CSV is still a broken reply", async () => {
    const client = await csvServer();
    const error = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "NetworkError", requestId: "req-csv" });
  });
});

describe("Content-Length: 0", () => {
  it.each([200, 404])("HTTP %i with an empty body gives undefined data and error", async (status) => {
    api = await startFakeApi();
    api.route((_req, res) => {
      res.writeHead(status, { "content-type": "application/json", "content-length": "0" });
      res.end();
    });
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    const result = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    expect(result.response.status).toBe(status);
    expect(result.data).toBeUndefined();
    expect(result.error).toBeUndefined();
  });
});
