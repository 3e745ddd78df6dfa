/** Section 1.2 and 1.3 on the wire: repeated array keys, free-form writes as plain pairs. */
import { afterEach, describe, expect, inject, it } from "vitest";
import { createAudienceClient } from "../../src/index.ts";
import { serializeQuery } from "../../src/internal/query-serializer.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";

let api: FakeApi;
afterEach(() => api?.close());
const credentials = { username: "u", password: "pw-query" };

describe("query strings", () => {
  it("serializes arrays by repeating the key and objects as plain pairs", () => {
    expect(serializeQuery({ city: ["a", "b"] })).toBe("city=a&city=b");
    expect(serializeQuery({ params: { status: "PAUSED", city: ["a b", "c&d"], dry: true } })).toBe(
      "status=PAUSED&city=a%20b&city=c%26d&dry=true",
    );
    expect(() => serializeQuery({ params: { nested: { x: 1 } } })).toThrow(/nested objects/);
  });

  it("free-form writes reach the wire as key=value pairs, not params[key]=value", async () => {
    api = await startFakeApi();
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    await client.PUT("/events/{eid}/client_campaign_status", {
      params: { path: { eid: "e1" }, query: { params: { status: "PAUSED", city: ["a", "b"] } } },
    });
    await client.POST("/campaigns/", { params: { query: { params: { eid: "e1", budget: 250 } } } });
    const [put, post] = api.calls();
    expect(put?.url).toBe("/events/e1/client_campaign_status?status=PAUSED&city=a&city=b");
    expect(put?.body).toBe("");
    expect(post?.url).toBe("/campaigns/?eid=e1&budget=250");
  });

  it("Prism accepts them (no validation error, no sl-violations)", async () => {
    const client = createAudienceClient({ baseUrl: inject("prismUrl"), credentials });
    const put = await client.PUT("/events/{eid}/client_campaign_status", {
      params: { path: { eid: "e1" }, query: { params: { status: "PAUSED", city: ["a", "b"] } } },
    });
    const post = await client.POST("/campaigns/", { params: { query: { params: { eid: "e1", budget: 250 } } } });
    for (const r of [put, post]) {
      expect(r.response.status).toBe(200);
      expect(r.response.headers.get("sl-violations")).toBeNull();
    }
  });
});
