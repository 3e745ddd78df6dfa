import { afterEach, describe, expect, it } from "vitest";
import { createAudienceClient } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json, type RecordingServer, startRecordingServer } from "../support/recording-server.ts";

let api: FakeApi;
let other: RecordingServer;
afterEach(async () => {
  await api?.close();
  await other?.close();
});
const credentials = { username: "ops@acme.test", password: "pw-redirect" };

describe("redirects", () => {
  it("a redirect to another origin carries no credential or partner header", async () => {
    api = await startFakeApi();
    other = await startRecordingServer((_req, res) => json(res, 200, { elsewhere: true }));
    api.route((_req, res) => {
      res.writeHead(302, { location: `${other.url}/landing` });
      res.end();
    });
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    const result = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    expect(result.data).toEqual({ elsewhere: true });
    const [seen] = other.requests;
    expect(seen?.headers.authorization).toBeUndefined();
    expect(seen?.headers["x-preferred-partner-id"]).toBeUndefined();
    expect(seen?.headers.cookie).toBeUndefined();
  });

  it("a same-origin redirect keeps them, and a 307 resends the body", async () => {
    api = await startFakeApi();
    api.route((req, res) => {
      if (req.path === "/setup_processes/old") {
        res.writeHead(307, { location: "/setup_processes/new" });
        res.end();
        return;
      }
      json(res, 201, JSON.parse(req.body || "{}"));
    });
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    const result = await client.POST("/setup_processes/{eid}", {
      params: { path: { eid: "old" } },
      body: { total_budget: 10 },
    });
    expect(result.data).toEqual({ total_budget: 10 });
    const landed = api.calls().find((r) => r.path === "/setup_processes/new");
    expect(landed?.headers.authorization).toMatch(/^Bearer /);
    expect(landed?.headers["x-preferred-partner-id"]).toBe("partner-id-acme");
  });
});
