/**
 * The binding's parts that need no renderer (the hooks themselves run in Chromium:
 * browser.test.ts): keys carry the partner, retry is off, typed errors, the end of a paged list.
 */
import { QueryClient } from "@tanstack/react-query";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { createAudienceClient, RateLimitError } from "../../src/index.ts";
import { createQueryHooks, type PagedPath, type QueryError } from "../../src/react-query/index.ts";
import { nextPageOf, withoutRepeat } from "../../src/react-query/infinite-query.ts";
import { json, type RecordingServer, startRecordingServer } from "../support/recording-server.ts";

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer((req, res) => {
    if (req.path.includes("slow-down")) return json(res, 429, {}, { "retry-after": "120" });
    return json(res, 200, { partner: req.headers["x-preferred-partner-id"] });
  });
});
afterAll(() => server.close());

const clientFor = (partnerId: string) =>
  createAudienceClient({ baseUrl: `${server.url}/api/v3`, session: { accessToken: "t" }, partnerId });

describe("queryOptions", () => {
  it("keys by [{ partner, environment }, method, path, params]: two partners never share an entry", async () => {
    const a = createQueryHooks(clientFor("partner-a"));
    const b = createQueryHooks(clientFor("partner-b"));
    const init = { params: { path: { eid: "e1" }, query: { type: "capacity" as const } } };
    const optionsA = a.queryOptions("get", "/events/{eid}/lookout_prediction", init);
    const optionsB = b.queryOptions("get", "/events/{eid}/lookout_prediction", init);
    const tenant = { partner: "partner-a", environment: `${server.url}/api/v3` };
    expect(optionsA.queryKey).toEqual([tenant, "get", "/events/{eid}/lookout_prediction", init.params]);
    const cache = new QueryClient();
    expect(await cache.fetchQuery(optionsA)).toEqual({ partner: "partner-a" });
    expect(await cache.fetchQuery(optionsB)).toEqual({ partner: "partner-b" });
    expect(cache.getQueryData(optionsA.queryKey)).toEqual({ partner: "partner-a" });
  });

  it("turns TanStack's retry off, even over a QueryClient default, and fails with the typed error", async () => {
    const hooks = createQueryHooks(clientFor("partner-a"));
    const options = hooks.queryOptions("get", "/events/{eid}", { params: { path: { eid: "slow-down" } } });
    expect(options.retry).toBe(false);
    const cache = new QueryClient({ defaultOptions: { queries: { retry: 3, retryDelay: 1 } } });
    const before = server.requests.length;
    const error = await cache.fetchQuery(options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(server.requests.length - before).toBe(1); // a Retry-After beyond maxRetryAfterMs fails at once
  });

  it("types data and error from the description", () => {
    const hooks = createQueryHooks(clientFor("partner-a"));
    expectTypeOf(hooks.useQuery<"get", "/events/{eid}">)
      .returns.toHaveProperty("error")
      .toEqualTypeOf<QueryError | null>();
    // @ts-expect-error: the path has no GET
    hooks.queryOptions("get", "/campaigns_setup");
    // Never called (hooks need a renderer): type-checked only.
    // @ts-expect-error: the infinite query supplies page and limit itself
    const _paged = () => hooks.useInfiniteQuery("get", "/events/", { params: { query: { page: 2 } } });
    expectTypeOf<PagedPath>().toEqualTypeOf<"/events/" | "/messages/partner/">();
  });
});

describe("the end of a paged list (listEvents' rule)", () => {
  const page = (...ids: number[]) => ({ items: ids.map((id) => ({ id })) });
  it("asks for the next page after a full one", () => expect(nextPageOf([page(1, 2)], 1, 2)).toBe(2));
  it("stops after a short page", () => expect(nextPageOf([page(1, 2), page(3)], 2, 2)).toBeUndefined());
  it("stops after an empty page", () => expect(nextPageOf([page(1, 2), page()], 2, 2)).toBeUndefined());
  it("stops after a repeated page and does not show it twice", () => {
    expect(nextPageOf([page(1, 2), page(1, 2)], 2, 2)).toBeUndefined();
    const data = withoutRepeat({ pages: [page(1, 2), page(1, 2)], pageParams: [1, 2] });
    expect(data).toEqual({ pages: [page(1, 2)], pageParams: [1] });
  });
});

describe("a query reads", () => {
  it.each([
    [
      "a write method (TanStack refetches a query on mount, focus and reconnect: each a write again)",
      "post",
      "/campaigns/",
    ],
    ["delete", "delete", "/setup_processes/{eid}"],
    ["an upper-case GET (another cache entry, never refreshed by a write)", "GET", "/events/{eid}"],
    ["a method that is no text", 5, "/events/{eid}"],
  ])("refuses %s, naming method, before anything is sent", (_label, method, path) => {
    const before = server.requests.length;
    const hooks = createQueryHooks(clientFor("partner-a"));
    expect(() =>
      hooks.queryOptions(method as never, path as never, { params: { path: { eid: "e1" } } } as never),
    ).toThrow(/^createQueryHooks: a query reads with "get"/);
    expect(server.requests.length).toBe(before);
  });
});

describe("a mutation writes", () => {
  it.each([
    ["an upper-case POST (its write would refresh nothing: the stale reads are keyed lower-case)", "POST"],
    ["a read method", "get"],
    ["a method that is no text", 5],
  ])("refuses %s, naming method, before any hook runs", (_label, method) => {
    const hooks = createQueryHooks(clientFor("partner-a"));
    expect(() => hooks.useMutation(method as never, "/campaigns/" as never)).toThrow(
      /^createQueryHooks: a mutation writes with "post", "put", "patch" or "delete" \(method\)/,
    );
  });
});

describe("a query reads, in its types too", () => {
  it("a write method does not compile", () => {
    const hooks = createQueryHooks(clientFor("partner-a"));
    // @ts-expect-error a query reads with "get"; a write goes through useMutation
    expect(() => hooks.queryOptions("post", "/campaigns/")).toThrow(TypeError);
  });
});

describe("createQueryHooks' arguments", () => {
  it.each([
    ["no client", undefined, /^createQueryHooks: client must be an AudienceClient/],
    ["null for the client", null, /^createQueryHooks: client must be an AudienceClient/],
    [
      "the client's options instead of a client",
      { baseUrl: "https://api.example.test/api/v3" },
      /^createQueryHooks: client must be an AudienceClient/,
    ],
  ])("refuses %s, naming it", (_label, client, pattern) => {
    expect(() => createQueryHooks(client as never)).toThrow(pattern);
  });

  it.each([
    ["a partner id string for options (it is { partnerId })", "partner-a"],
    ["a number for options", 5],
    ["an array for options", []],
  ])("refuses %s, naming options", (_label, options) => {
    expect(() => createQueryHooks(clientFor("partner-a"), options as never)).toThrow(
      /^createQueryHooks: options must be an object/,
    );
  });

  it("takes null as no options, as every helper of the package does", () => {
    const hooks = createQueryHooks(clientFor("partner-a"), null as never);
    expect(hooks.queryOptions("get", "/events/{eid}", { params: { path: { eid: "e1" } } }).queryKey[0]).toEqual({
      partner: "partner-a",
      environment: `${server.url}/api/v3`,
    });
  });
});
