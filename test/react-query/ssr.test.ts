/**
 * Server-side rendering across realms: a server renders a partner's page, dehydrates its cache,
 * and the page's own realm (a new load of the package, as a browser has) hydrates it. A key names
 * the partner and the environment before it is made, so one partner's cached read can never be
 * read by another partner's page, and what the server rendered hydrates on the page it was
 * rendered for (no request, no loading state). Rendered with react-dom/server in node.
 */
import {
  type DehydratedState,
  dehydrate,
  HydrationBoundary,
  QueryClient,
  QueryClientProvider,
} from "@tanstack/react-query";
import { createElement as h } from "react";
import { renderToString } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AudienceQueryHooks } from "../../src/react-query/index.ts";
import { json, type RecordingServer, startRecordingServer } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer((req, res) =>
    json(res, 200, { revenue: `revenue of ${String(req.headers["x-preferred-partner-id"])}` }),
  );
});
afterAll(() => server.close());

const X = "partner-id-x";
const Y = "partner-id-y";
const PATH = "/events/{eid}/lookout_prediction" as const;
const INIT = { params: { path: { eid: "e1" }, query: { type: "capacity" as const } } };
const reads = () => server.requests.filter((r) => r.path.includes("/lookout_prediction")).length;

/** A fresh load of the package: a realm of its own (a browser tab, a server process). */
async function realm() {
  vi.resetModules();
  const root = await import("../../src/index.ts");
  const binding = await import("../../src/react-query/index.ts");
  return { createAudienceClient: root.createAudienceClient, createQueryHooks: binding.createQueryHooks };
}
type Realm = Awaited<ReturnType<typeof realm>>;

/** A client whose partner comes from its IdToken (known only once a call has been made). */
function clientFromIdToken(r: Realm, partner: string, baseUrl = `${server.url}/api/v3`) {
  const { AccessToken, IdToken } = makeTokens({ groups: [partner] });
  return r.createAudienceClient({ baseUrl, session: { accessToken: AccessToken, idToken: IdToken } });
}

function Revenue({ api }: { api: AudienceQueryHooks }) {
  const { data, status } = api.useQuery("get", PATH, INIT);
  return h("p", null, status === "success" ? String((data as { revenue?: unknown }).revenue) : status);
}

/** The server's half of one request for `partner`: prefetch, render, dehydrate. */
async function serverRender(r: Realm, partner: string, queryClient: QueryClient) {
  const api = r.createQueryHooks(clientFromIdToken(r, partner), { partnerId: partner });
  await queryClient.prefetchQuery(api.queryOptions("get", PATH, INIT));
  const html = renderToString(h(QueryClientProvider, { client: queryClient }, h(Revenue, { api })));
  return { html, state: dehydrate(queryClient) };
}

/** The page's first render in its own realm, from the server's state. */
function pageRender(api: AudienceQueryHooks, state: DehydratedState) {
  const queryClient = new QueryClient();
  return renderToString(
    h(QueryClientProvider, { client: queryClient }, h(HydrationBoundary, { state }, h(Revenue, { api }))),
  );
}

describe("server-rendered reads reach only their partner's page", () => {
  it("one QueryClient reused by the server's requests: partner Y's page shows Y's body, never X's", async () => {
    const onServer = await realm();
    const shared = new QueryClient({ defaultOptions: { queries: { staleTime: 60_000 } } });
    const x = await serverRender(onServer, X, shared);
    const y = await serverRender(onServer, Y, shared);
    expect(x.html).toContain(`revenue of ${X}`);
    expect(y.html).toContain(`revenue of ${Y}`);
    const inPage = await realm();
    const api = inPage.createQueryHooks(clientFromIdToken(inPage, Y), { partnerId: Y });
    const before = reads();
    expect(pageRender(api, y.state)).toContain(`revenue of ${Y}`);
    expect(reads()).toBe(before);
  });

  it("a QueryClient per request: the page's first render is the server's, with no request", async () => {
    const onServer = await realm();
    await serverRender(onServer, X, new QueryClient());
    const y = await serverRender(onServer, Y, new QueryClient());
    expect(y.state.queries).toHaveLength(1);
    // The page's client as README's browser section makes it: a token from the backend, and the partner.
    const inPage = await realm();
    const client = inPage.createAudienceClient({
      baseUrl: `${server.url}/api/v3`,
      session: { accessToken: "page-token" },
      partnerId: Y,
    });
    const before = reads();
    expect(pageRender(inPage.createQueryHooks(client), y.state)).toContain(`revenue of ${Y}`);
    expect(pageRender(inPage.createQueryHooks(client, { partnerId: Y }), y.state)).toContain(`revenue of ${Y}`);
    expect(reads()).toBe(before);
  });

  it("keys of two partners, or of one partner in two environments, never meet in any realm", async () => {
    const keys: string[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await realm();
      for (const partner of [X, Y])
        for (const baseUrl of [`${server.url}/api/v3`, `${server.url}/staging/api/v3`]) {
          const api = r.createQueryHooks(clientFromIdToken(r, partner, baseUrl), { partnerId: partner });
          keys.push(JSON.stringify(api.queryOptions("get", PATH, INIT).queryKey));
        }
    }
    expect(new Set(keys).size).toBe(4);
    expect(keys.slice(0, 4)).toEqual(keys.slice(4)); // the same tenant: the same key in every realm
    expect(JSON.parse(keys[0] ?? "[]")[0]).toEqual({ partner: X, environment: `${server.url}/api/v3` });
  });

  it("a partner given to createQueryHooks that the client's calls do not go to caches nothing", async () => {
    const r = await realm();
    const api = r.createQueryHooks(clientFromIdToken(r, X), { partnerId: Y });
    const queryClient = new QueryClient();
    const options = api.queryOptions("get", PATH, INIT);
    const error = await queryClient.fetchQuery(options).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "PartnerSelectionError" });
    expect(String((error as Error).message)).toContain(X);
    expect(queryClient.getQueryData(options.queryKey)).toBeUndefined();
  });

  it("a partner that contradicts the client's own partnerId option is refused at once", async () => {
    const r = await realm();
    const client = r.createAudienceClient({
      baseUrl: `${server.url}/api/v3`,
      session: { accessToken: "t" },
      partnerId: X,
    });
    expect(() => r.createQueryHooks(client, { partnerId: Y })).toThrow(TypeError);
  });

  it("queryOptions with no partner known yet says how to give it, rather than keying by a guess", async () => {
    const r = await realm();
    const client = clientFromIdToken(r, X);
    const api = r.createQueryHooks(client);
    expect(() => api.queryOptions("get", PATH, INIT)).toThrow(/partnerId/);
    // The client's first call names it; from then on the key is the partner's.
    await client.GET(PATH, INIT);
    expect(api.queryOptions("get", PATH, INIT).queryKey[0]).toEqual({
      partner: X,
      environment: `${server.url}/api/v3`,
    });
  });
});
