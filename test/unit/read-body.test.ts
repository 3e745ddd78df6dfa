/**
 * Responses have a size limit: the body is counted as it comes out of
 * decompression, a gzip bomb stops at `maxResponseBytes`, a declared length above it is refused
 * before reading, and the failure is a typed error that is not retried.
 */
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { createAudienceClient, ResponseTooLargeError } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";

let api: FakeApi;
afterEach(() => api?.close());

const credentials = { username: "ops@acme.test", password: "pw-size-secret" };
// 64 MiB of JSON whitespace inside an array compresses to ~64 KB.
const bomb = gzipSync(Buffer.concat([Buffer.from("["), Buffer.alloc(64 * 1024 * 1024, 0x20), Buffer.from("]")]));

describe("maxResponseBytes", () => {
  it.each([200, 500])(
    "a gzip body inflating past the limit (HTTP %i) fails once, typed, without reading it all",
    async (status) => {
      api = await startFakeApi();
      api.route((_req, res) => {
        res.writeHead(status, {
          "content-type": "application/json",
          "content-encoding": "gzip",
          "x-request-id": "req-bomb",
        });
        res.end(bomb);
      });
      const client = createAudienceClient({ baseUrl: api.url, credentials, maxResponseBytes: 1024 * 1024 });
      const start = performance.now();
      const error = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect(error).toMatchObject({ requestId: "req-bomb", attempts: 1 });
      expect(String((error as Error).message)).toContain("maxResponseBytes (1048576 bytes)");
      expect(api.calls()).toHaveLength(1);
      expect(performance.now() - start).toBeLessThan(2_000);
    },
  );

  it("a declared Content-Length above the limit is refused before the body is read", async () => {
    api = await startFakeApi();
    api.route((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(10 * 1024 * 1024) });
      res.write("[");
      // never finishes: only the declared length can end this call quickly
    });
    const client = createAudienceClient({ baseUrl: api.url, credentials, maxResponseBytes: 1024, timeoutMs: 5_000 });
    const start = performance.now();
    const error = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(performance.now() - start).toBeLessThan(2_000);
  });

  it("a body at the limit is read; the option is checked at construction", async () => {
    api = await startFakeApi();
    const body = JSON.stringify({ pad: "x".repeat(1000) });
    api.route((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(body); // chunked: no declared length
    });
    const client = createAudienceClient({ baseUrl: api.url, credentials, maxResponseBytes: Buffer.byteLength(body) });
    const result = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    expect(result.data).toEqual({ pad: "x".repeat(1000) });
    expect(() => createAudienceClient({ baseUrl: api.url, credentials, maxResponseBytes: 0 })).toThrow(
      /maxResponseBytes/,
    );
    expect(() => createAudienceClient({ baseUrl: api.url, credentials, maxResponseBytes: 2 ** 30 })).toThrow(
      /maxResponseBytes.*at most/,
    );
  });
});
