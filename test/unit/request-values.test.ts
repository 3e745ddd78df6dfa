/**
 * What becomes URL or header text is checked where it enters: each case is a
 * ValidationError naming the field, nothing is sent, and the client stays usable.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createAudienceClient, ValidationError } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";

let api: FakeApi;
afterEach(() => api?.close());

const credentials = { username: "ops@acme.test", password: "pw-values-secret" };
const cyclic: unknown[] = [];
cyclic.push(cyclic);

const cases: Array<[string, (c: ReturnType<typeof createAudienceClient>) => Promise<unknown>, string]> = [
  [
    "a lone surrogate in a path id",
    (c) => c.GET("/events/{eid}", { params: { path: { eid: "ev\uD800t" } } }),
    "params.path.eid",
  ],
  ["a lone surrogate in a raw path", (c) => c.GET("/events/\uDC00x" as never, {} as never), "path"],
  [
    "a lone surrogate in a free-form query value",
    (c) => c.POST("/campaigns/", { params: { query: { params: { name: "launch\uD83D" } } } as never }),
    "query.params.name",
  ],
  [
    "a Date in a free-form query object",
    (c) => c.POST("/campaigns/", { params: { query: { params: { start: new Date() } } } as never }),
    "query.params.start",
  ],
  [
    "a Date on a path outside the description (dropped in silence before)",
    (c) => c.GET("/reports/daily" as never, { params: { query: { since: new Date() } } } as never),
    "query.since",
  ],
  [
    "a Map on a path outside the description",
    (c) => c.GET("/reports/daily" as never, { params: { query: { filter: new Map([["a", 1]]) } } } as never),
    "query.filter",
  ],
  [
    "a Map as a query value",
    (c) => c.GET("/events/", { params: { query: { page: new Map() as never } } }),
    "query.page",
  ],
  [
    "a nested object",
    (c) => c.POST("/campaigns/", { params: { query: { params: { a: { b: 1 } } } } as never }),
    "query.params.a",
  ],
  ["a cyclic array", (c) => c.GET("/events/", { params: { query: { page: cyclic as never } } }), "query.page.0"],
  ["NaN", (c) => c.GET("/events/", { params: { query: { page: Number.NaN } } }), "query.page"],
  [
    "a header value outside Latin-1",
    (c) => c.GET("/events/{eid}", { params: { path: { eid: "e1" } }, headers: { "x-trace": "caf\u00e9\u20ac" } }),
    "headers.x-trace",
  ],
  [
    "a header value with CR LF",
    (c) => c.GET("/events/{eid}", { params: { path: { eid: "e1" } }, headers: { "x-trace": "a\r\nb: c" } }),
    "headers.x-trace",
  ],
];

describe("values that become URL or header text", () => {
  it.each(cases)("%s is a ValidationError naming the field; nothing sent", async (_name, call, field) => {
    api = await startFakeApi();
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    const error = await call(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.field)).toContain(field);
    expect(api.requests).toHaveLength(0);
    expect((await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } })).response.status).toBe(200);
  });
});
