/**
 * openapi-fetch's contract through the client: header values. Its types accept numbers, booleans,
 * arrays of them and `undefined`/`null` in a call's `headers` and `params.header`; its
 * `mergeHeaders` sets a scalar as its text, appends each item of an array (Headers joins them with
 * ", "), skips `undefined` and deletes the header for `null`. The client sends what openapi-fetch
 * would send, and still refuses what Fetch cannot send without a raw TypeError quoting the value:
 * CR, LF, NUL and text outside Latin-1. Against a real local server.
 */
import { mergeHeaders } from "openapi-fetch";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAudienceClient, ValidationError } from "../../../src/index.ts";
import { json, type RecordingServer, startRecordingServer } from "../../support/recording-server.ts";
import { makeTokens } from "../../support/tokens.ts";

let server: RecordingServer;
beforeEach(async () => {
  server = await startRecordingServer((_req, res) => json(res, 200, { id: "evt-1" }));
});
afterEach(() => server.close());

const tokens = makeTokens();
const session = { accessToken: tokens.AccessToken, idToken: tokens.IdToken };

/** Every value openapi-fetch's HeadersOptions type accepts, one header each. */
const ACCEPTED = {
  "x-number": 42,
  "x-zero": 0,
  "x-float": 1.5,
  "x-true": true,
  "x-false": false,
  "x-list": ["a", 2, false],
  "x-one-item": ["only"],
  "x-empty-list": [],
  "x-skipped": undefined,
  "x-deleted": null,
  "x-text": "plain",
};

/** What openapi-fetch itself puts on the Request for these values. */
function reference(values: Record<string, unknown>): Record<string, string> {
  const headers = mergeHeaders(values as Parameters<typeof mergeHeaders>[0]);
  return Object.fromEntries([...headers.entries()].filter(([name]) => name.startsWith("x-")));
}

function sentXHeaders(): Record<string, string> {
  const [request] = server.requests;
  const sent = Object.entries(request?.headers ?? {}).filter(
    ([name]) => name.startsWith("x-") && name !== "x-preferred-partner-id",
  );
  return Object.fromEntries(sent.map(([name, value]) => [name, String(value)]));
}

describe("header values openapi-fetch accepts are sent as it sends them", () => {
  it("a call's headers: numbers, booleans, arrays joined, undefined skipped, null absent", async () => {
    const client = createAudienceClient({ baseUrl: server.url, session });
    const { data, error } = await client.GET("/events/{eid}", {
      params: { path: { eid: "evt-1" } },
      headers: ACCEPTED,
    });
    expect(error).toBeUndefined();
    expect(data).toEqual({ id: "evt-1" });
    const expected = reference(ACCEPTED);
    expect(expected).toMatchObject({ "x-number": "42", "x-true": "true", "x-list": "a, 2, false" });
    expect(sentXHeaders()).toEqual(expected);
  });

  it("params.header: the same values, the same result", async () => {
    const client = createAudienceClient({ baseUrl: server.url, session });
    const { error } = await client.GET("/events/{eid}", {
      params: { path: { eid: "evt-1" }, header: ACCEPTED as never },
    });
    expect(error).toBeUndefined();
    expect(sentXHeaders()).toEqual(reference(ACCEPTED));
  });

  it("a Headers object passes as it is", async () => {
    const client = createAudienceClient({ baseUrl: server.url, session });
    await client.GET("/events/{eid}", { params: { path: { eid: "evt-1" } }, headers: new Headers({ "x-a": "1" }) });
    expect(server.requests.map((r) => r.headers["x-a"])).toEqual(["1"]);
  });
});

describe("the client's headers option (openapi-fetch's createClient({ headers }))", () => {
  it("is sent on every call, merged under a call's headers as openapi-fetch merges them (null deletes)", async () => {
    const base = { ...ACCEPTED, "x-overridden": "client", "x-removed": "client" };
    const call = { "x-overridden": 7, "x-removed": null };
    const client = createAudienceClient({ baseUrl: server.url, session, headers: base });
    await client.GET("/events/{eid}", { params: { path: { eid: "evt-1" } } });
    await client.GET("/events/{eid}", { params: { path: { eid: "evt-1" } }, headers: call });
    const [first, second] = server.requests.map((r) =>
      Object.fromEntries(
        Object.entries(r.headers)
          .filter(([name]) => name.startsWith("x-") && name !== "x-preferred-partner-id")
          .map(([name, value]) => [name, String(value)]),
      ),
    );
    expect(first).toEqual(reference(base));
    const merged = mergeHeaders(base as never, call as never);
    expect(second).toEqual(Object.fromEntries([...merged.entries()].filter(([name]) => name.startsWith("x-"))));
    expect(second).toMatchObject({ "x-overridden": "7" });
    expect(second).not.toHaveProperty("x-removed");
  });

  it("cannot replace the client's own Authorization or partner header", async () => {
    const client = createAudienceClient({
      baseUrl: server.url,
      session,
      headers: { Authorization: "Bearer someone-else", "X-Preferred-Partner-Id": "partner-id-other" },
    });
    await client.GET("/events/{eid}", { params: { path: { eid: "evt-1" } } });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${tokens.AccessToken}`);
    expect(server.requests[0]?.headers["x-preferred-partner-id"]).toBe("partner-id-acme");
  });

  it.each([
    ["CR LF", { "x-bad": "s3cr3t-option\r\nX-Injected: 1" }],
    ["non-Latin-1 in an array", { "x-bad": ["s3cr3t-option€"] }],
    ["an object", { "x-bad": { nested: "s3cr3t-option" } }],
  ])("a value that is not header text (%s) is refused at construction, naming it", (_name, headers) => {
    let message = "";
    try {
      createAudienceClient({ baseUrl: server.url, session, headers: headers as never });
    } catch (e) {
      expect(e).toBeInstanceOf(TypeError);
      message = String(e);
    }
    expect(message).toMatch(/option "headers\.x-bad"/);
    expect(message).not.toContain("s3cr3t-option");
  });

  it("something that is not headers is refused at construction", () => {
    expect(() => createAudienceClient({ baseUrl: server.url, session, headers: "x-a: 1" as never })).toThrow(
      /option "headers"/,
    );
  });
});

describe("what Fetch cannot send stays refused, nothing sent, the value not quoted", () => {
  const secretish = "s3cr3t-header-value";
  it.each([
    ["CR LF in a string", { "x-bad": `${secretish}\r\nX-Injected: 1` }],
    ["LF in an array item", { "x-bad": ["ok", `${secretish}\nX-Injected: 1`] }],
    ["NUL", { "x-bad": `${secretish}\u0000` }],
    ["non-Latin-1", { "x-bad": `${secretish}\u2603` }],
    ["a non-Latin-1 item", { "x-bad": [`${secretish}€`] }],
    ["an object", { "x-bad": { nested: secretish } }],
    ["a nested array", { "x-bad": [[secretish]] }],
    ["a symbol", { "x-bad": Symbol(secretish) }],
  ])("%s in headers and in params.header", async (_name, values) => {
    const client = createAudienceClient({ baseUrl: server.url, session });
    for (const init of [{ headers: values }, { params: { header: values } }]) {
      const error = await client
        .GET("/events/{eid}", { ...init, params: { path: { eid: "evt-1" }, ...init.params } } as never)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect(String((error as Error).message)).toMatch(/x-bad/);
      expect(`${String(error)} ${JSON.stringify(error)}`).not.toContain(secretish);
    }
    expect(server.requests).toHaveLength(0);
  });
});
