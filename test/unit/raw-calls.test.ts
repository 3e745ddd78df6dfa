/**
 * Raw calls: the page cap holds for paths outside the description too;
 * the two endpoints partner tokens cannot use (Section 4, 7) are refused before sending; a 403
 * with another code than the partner-header case is not a PartnerAccessError; a 401 saying the
 * endpoint is not for this token does not refresh and replay.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  ApiError,
  AuthenticationError,
  createAudienceClient,
  PartnerAccessError,
  unwrap,
  ValidationError,
} from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json } from "../support/recording-server.ts";

let api: FakeApi;
afterEach(() => api?.close());
const credentials = { username: "u", password: "pw-raw" };
const make = () => createAudienceClient({ baseUrl: api.url, credentials, partnerId: "partner-id-acme" });
// Paths outside the description are not in the call's types.
type Untyped = (path: string, init?: unknown) => Promise<{ response: Response; error?: unknown }>;

describe("no bulk read asks for more than the page cap", () => {
  it.each([
    ["GET", "/campaigns/", { limit: 10_000 }],
    ["GET", "/campaigns/", { limit: "10000" }],
    ["GET", "/events/{eid}/available_events_for_series", { limit: [10, 5000] }],
  ])("refuses %s %s with %j, nothing sent", async (method, path, query) => {
    api = await startFakeApi();
    const client = make();
    const call = (method === "GET" ? client.GET : client.POST) as unknown as Untyped;
    const error = await call(path, { params: { path: { eid: "e1" }, query } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]).toMatchObject({ field: "query.limit" });
    expect((error as Error).message).toMatch(/at most 100.*Section 8\.5/);
    expect(api.requests).toHaveLength(0);
    // the client stays usable: a page within the cap goes out
    await (client.GET as unknown as Untyped)("/campaigns/", { params: { query: { limit: 100 } } });
    expect(api.calls().map((r) => r.url)).toEqual(["/campaigns/?limit=100"]);
  });
});

describe("the page cap holds for a limit sent from a parameter object", () => {
  // A query value that is an object is sent as its own key=value pairs (Section 1.3,
  // internal/query-serializer.ts): its `limit` went out unchecked.
  it.each([
    ["GET", "/events/", { filters: { limit: 10_000 } }, "query.filters.limit"],
    ["GET", "/events/", { limit: 5, more: { limit: "10000" } }, "query.more.limit"],
    ["GET", "/events/", JSON.parse('{"__proto__": {"limit": 10000}}'), "query.__proto__.limit"],
    ["GET", "/reports/daily", { filters: { limit: [10, 5000] } }, "query.filters.limit"],
    ["POST", "/campaigns/", { params: { limit: 10_000 } }, "query.params.limit"],
  ])("refuses %s %s with %j, nothing sent", async (method, path, query, field) => {
    api = await startFakeApi();
    const client = make();
    const call = (method === "GET" ? client.GET : client.POST) as unknown as Untyped;
    const error = await call(path, { params: { query } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.field)).toEqual([field]);
    expect(api.requests).toHaveLength(0);
  });
});

describe("an eid sent from a parameter object is held to an eid's rules", () => {
  it("POST /ingest/transaction_summary/from_excel with a second eid (in a parameter object, or repeated): refused, nothing sent", async () => {
    api = await startFakeApi();
    const call = make().POST as unknown as Untyped;
    for (const [query, field] of [
      [{ eid: "e1", more: { eid: "e1\r\n" } }, "query.more.eid"],
      [{ eid: ["e1", "e1 "] }, "query.eid"],
    ] as const) {
      const error = await call("/ingest/transaction_summary/from_excel", { params: { query }, body: "x" }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.map((i) => i.field)).toContain(field);
    }
    expect(api.requests).toHaveLength(0);
  });
});

/** `values` with the element at `at` deleted: a hole, which JSON sends as null. */
function withHole(values: unknown[], at: number): unknown[] {
  delete values[at];
  return values;
}

describe("a JSON body holds nothing JSON would lose in silence", () => {
  // JSON.stringify sends NaN and Infinity as null, and a Map or Set as {}: refused, nothing sent.
  it.each([
    ["NaN in an open field", "/reports/daily", { total: Number.NaN }, "body.total"],
    [
      "Infinity in a nested array",
      "/reports/daily",
      { rows: [{ sold: Number.POSITIVE_INFINITY }] },
      "body.rows.0.sold",
    ],
    ["a Map", "/reports/daily", { byCity: new Map([["Berlin", 3]]) }, "body.byCity"],
    ["a Set", "/reports/daily", { tags: new Set(["jazz"]) }, "body.tags"],
    ["a Map as the body", "/reports/daily", new Map([["a", 1]]), "body"],
    // A hole in an array is sent as null; a sparse array of length 1e8 was 500 MB of nulls, 30 s of CPU.
    ["an array with a hole", "/reports/daily", { rows: withHole([1, 2, 3], 1) }, "body.rows"],
    ["a sparse array as the body", "/reports/daily", Object.assign([], { length: 3 }), "body"],
    ["undefined in an array", "/reports/daily", { rows: [1, undefined] }, "body.rows"],
    ["a function in an array", "/reports/daily", { rows: [() => 1] }, "body.rows"],
    ["a symbol in an array", "/reports/daily", { rows: [Symbol("s")] }, "body.rows"],
    ["an invalid Date", "/reports/daily", { at: new Date(Number.NaN) }, "body.at"],
    [
      "a sparse array of length 10^8 + 1",
      "/reports/daily",
      { rows: Object.assign([1], { [10 ** 8]: 2 }) },
      "body.rows",
    ],
    // A key that is not a plain name may be a pasted secret: the field stops before it (internal/key-field.ts).
    ["NaN under a key that is no plain name", "/reports/daily", { "token=s3cr3t": { n: Number.NaN } }, "body"],
    [
      "a Set in a described body's open shape",
      "/campaigns_setup",
      { eid: "e1", tc: "x", tc_run_id: 1, extra: new Set([1]) },
      "body.extra",
    ],
  ])("%s: refused naming the field, nothing sent", async (_name, path, body, field) => {
    api = await startFakeApi();
    const error = await (make().POST as unknown as Untyped)(path, { body }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.field)).toEqual([field]);
    expect((error as Error).message).not.toContain("s3cr3t");
    expect(api.requests).toHaveLength(0);
  });

  it("a Date, a class's fields and a FormData are sent as they were", async () => {
    api = await startFakeApi();
    const client = make();
    class Row {
      sold = 3;
    }
    for (const body of [{ at: new Date(0) }, { row: new Row() }, new FormData()])
      expect((await (client.POST as unknown as Untyped)("/reports/daily", { body })).response.status).toBe(200);
    expect(api.calls().map((c) => c.body.slice(0, 2))).toEqual(['{"', '{"', "--"]); // the form as multipart
    expect(
      api
        .calls()
        .map((c) => c.body.slice(0, 40))
        .slice(0, 2),
    ).toEqual(['{"at":"1970-01-01T00:00:00.000Z"}', '{"row":{"sold":3}}']);
  });
});

describe("the endpoints partner tokens cannot use", () => {
  it.each([
    "/campaign_results/",
    "/campaign_results",
    "/campaigns/by_partner_id",
    "/campaigns/by_partner_id/",
    "/campaign%5Fresults/",
  ])(
    "refuses a raw call to %s with a ValidationError naming the per-event results endpoint, nothing sent",
    async (path) => {
      api = await startFakeApi();
      const error = await (make().GET as unknown as Untyped)(path).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as Error).message).toMatch(/not for partner tokens/);
      expect((error as Error).message).toContain("/integrations/{adplatform}/events/{eid}/campaign_results");
      expect(api.requests).toHaveLength(0);
    },
  );

  it.each(["error.auth.not_authorized", "error.unauthorized", "error.some.other_rule"])(
    "a 403 with the code %s is an ApiError with that code, not a PartnerAccessError",
    async (code) => {
      api = await startFakeApi();
      api.route((_req, res) => json(res, 403, { code }, { "x-request-id": "req-403" }));
      const error = await make()
        .GET("/events/", {})
        .then(unwrap)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).not.toBeInstanceOf(PartnerAccessError);
      expect(error).toMatchObject({ status: 403, code, requestId: "req-403" });
    },
  );

  it("a 403 without a code (or naming the partner) is the partner-header case: PartnerAccessError", async () => {
    api = await startFakeApi();
    let n = 0;
    api.route((_req, res) => json(res, 403, n++ === 0 ? {} : { code: "error.auth.partner_not_allowed" }));
    const client = make();
    for (let i = 0; i < 2; i++) {
      const error = await client
        .GET("/events/", {})
        .then(unwrap)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PartnerAccessError);
    }
  });

  it("a 401 error.auth.missing_token from /campaigns/by_partner_id does not refresh and replay", async () => {
    api = await startFakeApi();
    api.route((_req, res) => json(res, 401, { code: "error.auth.missing_token" }, { "x-request-id": "req-401" }));
    const client = make();
    // A user's middleware is the one way a call still reaches the path (the raw call is refused).
    client.use({
      onRequest: ({ request }) => new Request(request.url.replace(/\/events\/$/, "/campaigns/by_partner_id"), request),
    });
    const error = await client
      .GET("/events/", {})
      .then(unwrap)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toMatch(/not for partner tokens/);
    expect(api.refreshes()).toBe(0);
    expect(api.calls().map((r) => r.path)).toEqual(["/campaigns/by_partner_id"]);
  });

  it("an ordinary 401 still refreshes once and replays", async () => {
    api = await startFakeApi();
    let n = 0;
    api.route((_req, res) =>
      n++ === 0 ? json(res, 401, { code: "error.auth.missing_token" }) : json(res, 200, { items: [] }),
    );
    const client = make();
    await expect(client.GET("/events/", {}).then(unwrap)).resolves.toEqual({ items: [] });
    expect(api.refreshes()).toBe(1);
  });
});
