/**
 * Recipe, the dashboard's page half: a client whose session the page renews from its own backend
 * (examples/dashboard/backend.ts), and TanStack Query hooks over it. The client asks the provider
 * on its first call, again in the background before the token expires (no call waits while the
 * held one is valid), and after a 401; twenty calls that need a token ask once.
 *
 * Written with `createElement` so it runs as it is; with JSX the elements are the same tags.
 * A page passes `partnerId` (an access token names no partner): the backend knows it, and renders
 * it into the page. One `QueryClient` per partner (docs/REACT-QUERY.md).
 */
import { createAudienceClient } from "@audience-intelligence/client";
import { createQueryHooks } from "@audience-intelligence/client/react-query";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement as h, Suspense } from "react";

export interface DashboardOptions {
  readonly baseUrl: string;
  readonly partnerId: string;
  /** The backend's token endpoint, e.g. "/api/audience-token". */
  readonly tokenUrl: string;
}

export function createDashboard(options: DashboardOptions) {
  const client = createAudienceClient({
    baseUrl: options.baseUrl,
    partnerId: options.partnerId,
    session: async () => {
      const response = await fetch(options.tokenUrl, { credentials: "same-origin" });
      if (!response.ok) throw new Error(`token endpoint answered ${response.status}`); // a SessionError's cause
      const { accessToken } = (await response.json()) as { accessToken: string };
      return { accessToken };
    },
  });
  const api = createQueryHooks(client, { partnerId: options.partnerId });
  const queryClient = new QueryClient();

  function Forecast({ eid }: { eid: string }) {
    const { data, error } = api.useQuery("get", "/events/{eid}/lookout_prediction", {
      params: { path: { eid }, query: { type: "capacity" } },
    });
    if (error) return h("p", { role: "alert" }, `${error.name}: ${error.message}`);
    return h("pre", null, JSON.stringify(data));
  }

  function Dashboard({ eid }: { eid: string }) {
    return h(
      QueryClientProvider,
      { client: queryClient },
      h(Suspense, { fallback: h("p", null, "Loading…") }, h(Forecast, { eid })),
    );
  }

  return { client, api, queryClient, Dashboard, Forecast };
}
