/**
 * Code loaded only when needed (transport/lazy-write-checks.ts, transport/lazy-redirect.ts) that
 * cannot be loaded (a page that went offline, a chunk the deployment no longer serves) never lets
 * more through than the loaded code would: a write check that cannot run proves nothing (the write
 * is not repeated and may have happened), a redirect that cannot be checked is not followed.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createClientWithSeams } from "../../src/create-client.ts";
import { createAudienceClient, ServerError } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { routeSetupApi } from "../support/fake-setup-api.ts";
import { json } from "../support/recording-server.ts";

vi.mock("../../src/transport/write-checks.ts", () => {
  throw new Error("chunk not served");
});
vi.mock("../../src/transport/redirect-policy.ts", () => {
  throw new Error("chunk not served");
});

let api: FakeApi;
afterEach(() => api?.close());
const credentials = { username: "u", password: "pw-unloadable" };
const retry = { baseDelayMs: 1, maxDelayMs: 2 };

describe("a lazily loaded part that cannot load", () => {
  it("a write check: the ambiguous create fails as possibly done and is never repeated", async () => {
    api = await startFakeApi();
    const store = routeSetupApi(api);
    api.route((req, res) => {
      if (req.method === "POST") {
        store.drafts.set("mine", JSON.parse(req.body));
        return json(res, 503, {});
      }
      return json(res, 200, store.drafts.get("mine"));
    });
    const client = createClientWithSeams({ baseUrl: api.url, credentials, adPlatform: "meta", retry }, {});
    const draft = {
      goal: "UTILIZATION",
      total_budget: 1000,
      start_date: "2027-03-01",
      end_date: "2027-03-31",
      tc_run_id: 7,
    };
    const error = await client
      .setupProcess("mine")
      .create(draft as never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 503, mayHaveSucceeded: true });
    expect((error as Error).message).toMatch(/could not be loaded/);
    expect(api.calls().filter((r) => r.method === "POST")).toHaveLength(1);
  });

  it("a redirect: not followed, a typed error with the request id, sent once", async () => {
    api = await startFakeApi();
    api.route((_req, res) => {
      res.writeHead(302, { location: `${api.url}/events/e2`, "x-request-id": "req-hop" });
      res.end();
    });
    const client = createAudienceClient({ baseUrl: api.url, credentials, retry });
    const error = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "NetworkError", requestId: "req-hop", attempts: 1 });
    expect((error as Error).message).toMatch(/redirect not followed/);
    expect(api.calls()).toHaveLength(1);
  });
});
