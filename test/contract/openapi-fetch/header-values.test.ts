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
