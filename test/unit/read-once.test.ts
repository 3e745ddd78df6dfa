/**
 * What a call is checked with is what it is sent with: each field of the init, and each value of
 * its parameters, headers and JSON body, is read once. A getter (or a Proxy) that answers one value to the
 * checks and another to openapi-fetch would otherwise move a call past them: an `eid` that is `e1`
 * when checked and `..` when sent took the call out of the API's path (`GET /api/v3/`), a page
 * limit over the cap went out, and a header value with CR LF ended in a raw TypeError.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createAudienceClient } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { SETUP_DRAFT } from "../support/fake-setup-api.ts";

let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const credentials = { username: "ops@acme.test", password: "pw-read-once" };

/** An object whose `key` answers `first` on its first read and `then` on every later one. */
function turning<T>(key: string, first: T, then: T, rest: Record<string, unknown> = {}) {
  let reads = 0;
  return Object.defineProperty({ ...rest }, key, {
    enumerable: true,
    get: () => (reads++ === 0 ? first : then),
  }) as Record<string, T>;
}

async function client(options: Record<string, unknown> = {}) {
  api = await startFakeApi();
  return createAudienceClient({ baseUrl: api.url, credentials, ...options });
}

describe("a call's values are read once: what is checked is what is sent", () => {
  it("a path id that turns into '..' is sent as it was checked", async () => {
    const c = await client();
    const result = await c.GET("/events/{eid}", { params: { path: turning("eid", "e1", "..") } } as never);
    expect(result.response.status).toBe(200);
    expect(api?.calls().map((r) => r.path)).toEqual(["/events/e1"]);
  });

  it("…on a path outside the description too", async () => {
    const c = await client();
    await c.GET("/reports/{rid}" as never, { params: { path: turning("rid", "r1", "..") } } as never);
    expect(api?.calls().map((r) => r.path)).toEqual(["/reports/r1"]);
  });

  it("a page limit that turns over the cap is sent as it was checked", async () => {
    const c = await client();
    await c.GET("/events/", { params: { query: turning<unknown>("limit", 5, 100_000) } } as never);
    expect(api?.calls().map((r) => r.query.get("limit"))).toEqual(["5"]);
  });

  it("a header value that turns into CR LF is sent as it was checked (headers and params.header)", async () => {
    const c = await client();
    const headers = turning("x-trace", "t1", "t1\r\nx-injected: 1");
    const header = turning("x-span", "s1", "s1\r\nx-injected: 1");
    const result = await c.GET("/events/", { headers, params: { header } } as never);
    expect(result.response.status).toBe(200);
    const [sent] = api?.calls() ?? [];
    expect([sent?.headers["x-trace"], sent?.headers["x-span"]]).toEqual(["t1", "s1"]);
  });

  it("an init whose body turns from valid to invalid is sent as it was checked", async () => {
    const c = await client();
    const body = { name: "Launch", eid: "e1" };
    const init = turning<unknown>("body", body, { name: 5 }, { params: { path: { eid: "e1" } } });
    await c.POST("/reports/{eid}" as never, init as never);
    expect(api?.calls().map((r) => r.body)).toEqual([JSON.stringify(body)]);
  });

  it("a body field that turns invalid after the request schema checked it is sent as it was checked", async () => {
    const c = await client();
    const draft = turning<unknown>("total_budget", 1000, "lots", { ...SETUP_DRAFT });
    const result = await c.PUT("/setup_processes/{eid}", { params: { path: { eid: "e1" } }, body: draft } as never);
    expect(result.response.status).toBe(200);
    expect(api?.calls().map((r) => JSON.parse(r.body).total_budget)).toEqual([1000]);
  });

  it("a body value outside the request schemas that turns into NaN is sent as it was checked, not as null", async () => {
    const c = await client();
    const body = { nested: turning<unknown>("count", 3, Number.NaN) };
    const result = await c.POST("/reports/" as never, { body } as never);
    expect(result.response.status).toBe(200);
    expect(api?.calls().map((r) => r.body)).toEqual(['{"nested":{"count":3}}']);
  });

  it("each value of a JSON body is read once", async () => {
    const c = await client();
    let reads = 0;
    const body = Object.defineProperty({ ...SETUP_DRAFT }, "goal", {
      enumerable: true,
      get: () => {
        reads += 1;
        return "UTILIZATION";
      },
    });
    await c.PUT("/setup_processes/{eid}", { params: { path: { eid: "e1" } }, body } as never);
    expect(api?.calls()).toHaveLength(1);
    expect(reads).toBe(1);
  });

  it("the headers option: a value that turns into CR LF is sent as it was checked", async () => {
    const c = await client({ headers: turning("x-app", "dash", "dash\r\nx-injected: 1") });
    const result = await c.GET("/events/");
    expect(result.response.status).toBe(200);
    expect(api?.calls()[0]?.headers["x-app"]).toBe("dash");
  });
});
