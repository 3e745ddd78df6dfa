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

describe("credentials never follow a redirect off their origin", () => {
  const hop =
    (location: string, status = 307) =>
    (_req: unknown, res: import("node:http").ServerResponse) => {
      res.writeHead(status, { location, "x-request-id": "req-hop" });
      res.end();
    };

  it("a 307 answered to POST /auth sends the password nowhere else, and no foreign token is accepted", async () => {
    api = await startFakeApi();
    other = await startRecordingServer((_req, res) => json(res, 200, { AccessToken: "x.y.z", IdToken: "a.b.c" }));
    api.handle((req, res) => (req.path === "/auth" ? hop(`${other.url}/steal`)(req, res) : json(res, 200, {})));
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    const error = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "NetworkError", requestId: "req-hop" });
    expect(String((error as Error).message)).toMatch(/credentials, which never follow a redirect/);
    expect(other.requests).toHaveLength(0);
    expect(api.requests.filter((r) => r.path === "/auth")).toHaveLength(1); // not retried either
    expect(client.partnerId()).toBeUndefined();
  });

  it("a same-origin redirect of the sign-in is not followed either", async () => {
    api = await startFakeApi();
    api.handle((req, res) => (req.path === "/auth" ? hop("/auth2")(req, res) : json(res, 200, {})));
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    await expect(client.GET("/events/{eid}", { params: { path: { eid: "e1" } } })).rejects.toMatchObject({
      name: "NetworkError",
    });
    expect(api.requests.map((r) => r.path)).toEqual(["/auth"]);
  });

  it("a 308 answered to the refresh sends the refresh token nowhere else", async () => {
    api = await startFakeApi({
      onRefresh: (req, res) => {
        hop(`${other.url}/refresh`, 308)(req, res);
        return true;
      },
    });
    other = await startRecordingServer((_req, res) => json(res, 200, {}));
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    await client.GET("/events/{eid}", { params: { path: { eid: "warm" } } });
    const stale = api.tokens().AccessToken;
    api.route((req, res) => json(res, req.headers.authorization === `Bearer ${stale}` ? 401 : 200, {}));
    await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch(() => undefined);
    expect(other.requests).toHaveLength(0);
  });

  it("a redirect from https to http is refused (custom transport stands in for TLS)", async () => {
    const seen: string[] = [];
    const client = createAudienceClient({
      baseUrl: "https://api.example.test/api/v3",
      session: { accessToken: "access-token-https-1" },
      partnerId: "partner-id-acme",
      fetch: async (request) => {
        seen.push(request.url);
        return new Response(null, { status: 302, headers: { location: "http://api.example.test/api/v3/events/e1" } });
      },
    });
    const error = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "NetworkError" });
    expect(String((error as Error).message)).toMatch(/from https to plain http/);
    expect(seen).toEqual(["https://api.example.test/api/v3/events/e1"]);
  });

  it("a cross-origin 307 of a write is refused: no body goes to another origin", async () => {
    api = await startFakeApi();
    other = await startRecordingServer((_req, res) => json(res, 200, {}));
    api.route(hop(`${other.url}/setup`));
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    const error = await client
      .PUT("/setup_processes/{eid}", { params: { path: { eid: "e1" } }, body: { total_budget: 10 } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "NetworkError" });
    expect(other.requests).toHaveLength(0);
  });

  it("a redirect loop ends after the hop limit and is not retried as a transient failure", async () => {
    api = await startFakeApi();
    api.route(hop("/events/loop", 302));
    const client = createAudienceClient({ baseUrl: api.url, credentials, retry: { baseDelayMs: 1, maxDelayMs: 2 } });
    const error = await client.GET("/events/{eid}", { params: { path: { eid: "loop" } } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "NetworkError", attempts: 1 });
    expect(api.calls()).toHaveLength(6); // the call and 5 hops, once (was 30)
  });

  it.each([
    ["an unparseable Location", "http://[::1"],
    ["a Location that is not http(s)", "file:///etc/passwd"],
  ])("%s is a typed error with the request id", async (_name, location) => {
    api = await startFakeApi();
    api.route(hop(location, 302));
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    const error = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "NetworkError", requestId: "req-hop" });
  });
});
