/**
 * The token store is a cache, never a single point of failure (Section 5.8):
 * a store that throws, hangs or returns garbage is reported through the logger (redacted) and
 * treated as absent; a failing `set` never fails a call whose sign-in succeeded.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createAudienceClient, type TokenStore } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";

let api: FakeApi;
afterEach(() => api?.close());

const credentials = { username: "ops@acme.test", password: "pw-store-secret" };

function client(tokenStore: TokenStore, lines: string[], timeoutMs = 30_000) {
  return createAudienceClient({
    baseUrl: api.url,
    credentials,
    tokenStore,
    timeoutMs,
    logger: { warn: (m, d) => lines.push(`${m} ${JSON.stringify(d)}`) },
  });
}
const read = (c: ReturnType<typeof client>) => c.GET("/events/{eid}", { params: { path: { eid: "e1" } } });

describe("a failing token store is treated as absent", () => {
  it.each([
    [
      "get throws",
      () => {
        throw new Error("redis down");
      },
    ],
    ["get rejects", () => Promise.reject(new Error("redis down"))],
    ["get returns a number", () => 42],
    ["get returns an object without accessToken", () => ({ token: "x" })],
    ["get returns an accessToken with CR/LF", () => ({ accessToken: "abc\r\ndef" })],
    ["get returns a non-string idToken", () => ({ accessToken: "abc.def.ghi", idToken: 7 })],
  ] as Array<[string, () => unknown]>)("%s: the client signs in, reports it, and keeps working", async (_name, get) => {
    api = await startFakeApi();
    const lines: string[] = [];
    const c = client({ get: get as TokenStore["get"], set: () => undefined }, lines);
    expect((await read(c)).response.status).toBe(200);
    expect((await read(c)).response.status).toBe(200);
    expect(api.signIns()).toBe(1);
    expect(lines.some((l) => l.includes("tokenStore.get()"))).toBe(true);
  });

  it("a get that never answers holds no call past its timeout", async () => {
    api = await startFakeApi();
    const lines: string[] = [];
    const c = client({ get: () => new Promise(() => undefined), set: () => undefined }, lines, 200);
    const start = performance.now();
    expect((await read(c)).response.status).toBe(200);
    expect(performance.now() - start).toBeLessThan(1_500);
    expect(lines.some((l) => l.includes("did not answer") || l.includes("tokenStore.get() failed"))).toBe(true);
  });

  it.each([
    [
      "set throws",
      () => {
        throw new Error("disk full");
      },
    ],
    ["set rejects", () => Promise.reject(new Error("disk full"))],
    ["set never answers", () => new Promise<void>(() => undefined)],
  ] as Array<[string, TokenStore["set"]]>)(
    "%s: the call whose sign-in succeeded succeeds, and it is reported",
    async (_name, set) => {
      api = await startFakeApi();
      const lines: string[] = [];
      const c = client({ get: () => undefined, set }, lines, 150);
      expect((await read(c)).response.status).toBe(200);
      expect((await read(c)).response.status).toBe(200);
      expect(api.signIns()).toBe(1);
      await expect.poll(() => lines.some((l) => l.includes("tokenStore.set() failed")), { timeout: 5000 }).toBe(true);
      expect(lines.join("\n")).not.toContain(api.tokens().AccessToken);
    },
  );
});
