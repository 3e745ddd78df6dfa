/**
 * Path values as openapi-fetch sends them (encodeURIComponent: every reserved character, UTF-8)
 * and as Section 2 asks for a taste cluster name ("used as a path segment, URL-encoded, not
 * slugified"): what the server receives, raw, for each family member, through the client against
 * a real server. Refused, with the field named and nothing sent, only what encoding cannot make
 * safe: a value that is `.` or `..`, plain or percent-encoded at any depth, and a lone surrogate.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAudienceClient, ValidationError } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";

let api: FakeApi;
beforeEach(async () => {
  api = await startFakeApi();
});
afterEach(() => api.close());

const credentials = { username: "ops@acme.test", password: "pw-path-values" };
const client = (extra: Record<string, unknown> = {}) =>
  createAudienceClient({ baseUrl: api.url, credentials, ...extra });
/** The paths the server received, sign-in left out. */
const received = () => api.requests.filter((r) => r.path !== "/auth").map((r) => r.path);

/** [what, value, the path segment the server receives]: openapi-fetch's encodeURIComponent. */
const family: Array<[string, string, string]> = [
  ["a slash", "Jazz/Blues", "Jazz%2FBlues"],
  ["a backslash", "Jazz\\Blues", "Jazz%5CBlues"],
  ["a question mark", "a?b", "a%3Fb"],
  ["a hash", "a#b", "a%23b"],
  ["an ampersand and equals", "a&b=c", "a%26b%3Dc"],
  ["a plus", "a+b", "a%2Bb"],
  ["accented text", "café", "caf%C3%A9"],
  ["CJK", "東京", "%E6%9D%B1%E4%BA%AC"],
  ["an emoji (non-BMP)", "🎷", "%F0%9F%8E%B7"],
  ["already-encoded slash: sent double-encoded, as openapi-fetch does", "a%2Fb", "a%252Fb"],
  ["already-encoded backslash", "a%5Cb", "a%255Cb"],
  ["already-encoded space", "a%20b", "a%2520b"],
  ["a dot inside", "v1.2", "v1.2"],
  ["three dots", "...", "..."],
];

describe("an identifier in the path: percent-encoded as openapi-fetch encodes it", () => {
  it.each(family)("eid with %s", async (_what, eid, segment) => {
    const c = client();
    expect((await c.GET("/events/{eid}", { params: { path: { eid } } })).response.status).toBe(200);
    expect(received()).toEqual([`/events/${segment}`]);
  });

  it.each(family)(
    "adplatform with %s, given to the call and as the adPlatform option",
    async (_what, value, segment) => {
      const path = `/integrations/connect/${segment}/status`;
      await client().GET("/integrations/connect/{adplatform}/status", { params: { path: { adplatform: value } } });
      // The option is also held to header text (Latin-1, no whitespace): options/workflow.ts.
      const latin1 = /^[\x21-\xff]+$/.test(value);
      if (latin1)
        await client({ adPlatform: value }).GET("/integrations/connect/{adplatform}/status", {
          params: { path: {} } as never,
        });
      expect(received()).toEqual(latin1 ? [path, path] : [path]);
    },
  );

  it("a setup handle of an eid with a slash reads its own draft", async () => {
    api.route((req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ eid: "Jazz / Blues", name: "draft", seen: req.path }));
    });
    const draft = await client().setupProcess("Jazz/Blues").load();
    expect(draft).toMatchObject({ seen: "/setup_processes/Jazz%2FBlues" });
  });
});

describe("a taste cluster name (Section 2: a path segment, URL-encoded, not slugified)", () => {
  const clusterPath = "/events/{eid}/clusters/{tc}";
  const read = (tc: unknown) =>
    client().GET(clusterPath as never, { params: { path: { eid: "e1", tc } } } as never) as Promise<{
      response: Response;
    }>;
  const names: Array<[string, string, string]> = [
    ["spaces and a slash", "Jazz / Blues", "Jazz%20%2F%20Blues"],
    ["a backslash", "AC\\DC fans", "AC%5CDC%20fans"],
    ["a percent sign", "Top 10%", "Top%2010%25"],
    ["already-encoded text", "Jazz%20Blues", "Jazz%2520Blues"],
    ["a question mark and a hash", "Who? #1", "Who%3F%20%231"],
    ["an emoji", "Rock 🎸", "Rock%20%F0%9F%8E%B8"],
  ];

  it.each(names)("in a path outside the description: %s", async (_what, tc, segment) => {
    expect((await read(tc)).response.status).toBe(200);
    expect(received()).toEqual([`/events/e1/clusters/${segment}`]);
  });

  it("the edit of a published cluster sends the name as given (POST /campaigns_setup)", async () => {
    await client().setupProcess("e1").editPublishedCluster({ tc: "Jazz / Blues", tc_run_id: 3 });
    const post = api.requests.find((r) => r.path === "/campaigns_setup");
    expect(JSON.parse(post?.body ?? "{}")).toMatchObject({ eid: "e1", tc: "Jazz / Blues", tc_run_id: 3 });
  });
});

describe("what encoding cannot make safe is refused, the field named, nothing sent", () => {
  const dots = [".", "..", "%2e", "%2e%2E", ".%2E", "%2E.", "%252e%252e", "%25%32%65"];
  const refused = async (call: () => Promise<unknown>, field: string) => {
    const error = await call().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.field)).toEqual([field]);
    expect(received()).toEqual([]);
  };

  it.each(dots)("eid %j", (eid) =>
    refused(() => client().GET("/events/{eid}", { params: { path: { eid } } }), "params.path.eid"),
  );

  it.each(dots)("adplatform %j", (adplatform) =>
    refused(
      () => client().GET("/integrations/connect/{adplatform}/status", { params: { path: { adplatform } } }),
      "params.path.adplatform",
    ),
  );

  it.each(dots)("tc %j in a path outside the description", (tc) =>
    refused(
      () => client().GET("/events/{eid}/clusters/{tc}" as never, { params: { path: { eid: "e1", tc } } } as never),
      "params.path.tc",
    ),
  );

  it.each([
    ["eid", () => client().GET("/events/{eid}", { params: { path: { eid: "a\uD800b" } } }), "params.path.eid"],
    [
      "tc",
      () =>
        client().GET(
          "/events/{eid}/clusters/{tc}" as never,
          { params: { path: { eid: "e1", tc: "\uDC00" } } } as never,
        ),
      "params.path.tc",
    ],
  ] as const)("a lone surrogate in %s", (_name, call, field) => refused(call, field));
});
