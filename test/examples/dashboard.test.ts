/**
 * The dashboard recipe (examples/dashboard/) against the test kit: the backend's token endpoint
 * over a long-lived client with credentials, the page's client renewing its session from that
 * endpoint, its TanStack Query reads. Concurrent first reads ask the endpoint once, reads across
 * several token lifetimes never fail, the page never sends the password, and every read names
 * the partner.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAudienceClient } from "@audience-intelligence/client";
import { expectPartnerHeaderOnEvery, type MockApi, startMockApi } from "@audience-intelligence/client/testing";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { tokenEndpoint } from "../../examples/dashboard/backend.ts";
import { createDashboard } from "../../examples/dashboard/page.ts";
import { findSecret } from "../support/secret-forms.ts";

let api: MockApi;
let backend: Server;
let tokenUrl = "";
let tokenCalls = 0;
/** The backend's handler over its one long-lived client (made anew per test, after the scenario). */
let handler: (request: Request) => Promise<Response>;
// The backend keeps the runtime's own fetch; the page's requests go through the global one, which
// the first test records.
const runtimeFetch = globalThis.fetch;
const newBackendClient = () => {
  handler = tokenEndpoint(
    createAudienceClient({ baseUrl: api.baseUrl, credentials: api.credentials, fetch: runtimeFetch }),
  );
};
afterEach(() => vi.unstubAllGlobals());

beforeAll(async () => {
  api = await startMockApi();
  // node:http in front of the fetch-style handler, as a Node backend mounts it.
  backend = createServer(async (req, res) => {
    tokenCalls++;
    const response = await handler(new Request(`http://127.0.0.1${req.url}`, { method: req.method ?? "GET" }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => backend.listen(0, "127.0.0.1", resolve));
  tokenUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}/api/audience-token`;
}, 60_000);
afterAll(async () => {
  await new Promise((resolve) => backend?.close(resolve));
  await api?.close();
});

const forecast = (eid: string) =>
  [
    "get",
    "/events/{eid}/lookout_prediction",
    { params: { path: { eid }, query: { type: "capacity" as const } } },
  ] as const;

describe("examples/dashboard", () => {
  it("concurrent first reads ask the backend once; the forecast renders; the page sends no password", async () => {
    api.reset();
    api.useScenario("healthy");
    newBackendClient();
    tokenCalls = 0;
    const sent: string[] = [];
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const body = request.body ? await request.clone().text() : "";
      sent.push(`${request.method} ${request.url}\n${[...request.headers].join("\n")}\n${body}`);
      return runtimeFetch(request);
    });
    const page = createDashboard({ baseUrl: api.baseUrl, partnerId: api.partnerId, tokenUrl });
    const eids = ["evt-1001", "evt-1002", "evt-1003", "evt-1004", "evt-1005"];
    const bodies = await Promise.all(
      eids.map((eid) => page.queryClient.fetchQuery(page.api.queryOptions(...forecast(eid)))),
    );
    for (const body of bodies) expect(body).not.toBeNull();
    expect(tokenCalls).toBe(1);
    const html = renderToString(createElement(page.Dashboard, { eid: "evt-1001" }));
    expect(html).toContain(JSON.stringify(bodies[0]).replaceAll('"', "&quot;"));
    const pageReads = api.requests().filter((r) => r.path.includes("lookout_prediction"));
    expect(pageReads).toHaveLength(eids.length);
    expectPartnerHeaderOnEvery(api.requests(), api.partnerId);
    const signIns = api.requests().filter((r) => r.method === "POST" && r.path === "/auth");
    expect(signIns).toHaveLength(1); // the backend's, once
    // What the page itself sent: its token request and its reads, never /auth, never the password
    // in any encoding (the username is in the access token's claims, by design).
    expect(findSecret(sent.join("\n"), api.credentials.password)).toBeUndefined();
    expect(sent.filter((r) => /\/auth(\/|\s|$)/.test(r.split("\n")[0] as string))).toEqual([]);
    expect(sent.length).toBe(1 + eids.length);
  });

  it("reads across several short token lifetimes never fail, renewed from the backend", async () => {
    api.reset();
    api.useScenario("token-expiry", { lifetimeMs: 1_500 });
    newBackendClient();
    tokenCalls = 0;
    const page = createDashboard({ baseUrl: api.baseUrl, partnerId: api.partnerId, tokenUrl });
    const started = Date.now();
    let reads = 0;
    while (Date.now() - started < 4_000) {
      await page.client.GET("/events/{eid}", { params: { path: { eid: "evt-1001" } } }).then(({ error }) => {
        expect(error).toBeUndefined();
      });
      reads++;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    expect(reads).toBeGreaterThan(10);
    expect(tokenCalls).toBeGreaterThanOrEqual(2);
  }, 30_000);
});
