/** Mounting, waiting and the two partners' clients, shared by the app's scenarios. */
import { createAudienceClient } from "@audience-intelligence/client";
import { createQueryHooks } from "@audience-intelligence/client/react-query";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement, type ReactNode } from "react";
import { createRoot } from "react-dom/client";

export const h = createElement;

/** One client per partner, as a multi-partner user's dashboard holds them (Section 5.5). */
function partnerClient(partnerId: string) {
  return createAudienceClient({
    baseUrl: `${location.origin}/api/v3`,
    session: { accessToken: "browser-test-token" },
    partnerId,
    // Short backoff so that five attempts take milliseconds; the count is what is checked.
    retry: { baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 1_000 },
  });
}

const clientA = partnerClient("partner-a");
const clientB = partnerClient("partner-b");
export const hooksA = createQueryHooks(clientA);
export const hooksB = createQueryHooks(clientB);

/**
 * A QueryClient whose defaults would retry 3 times, 10 ms apart: if the binding left TanStack's
 * retry on, the attempts check would see them.
 */
export function newQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: 3, retryDelay: 10, staleTime: 60_000 } } });
}

/** Renders `node` under a provider in a fresh container; returns the container and an unmount. */
export function mount(queryClient: QueryClient, node: ReactNode): { el: HTMLElement; unmount: () => void } {
  const el = document.createElement("div");
  document.body.append(el);
  const root = createRoot(el);
  root.render(h(QueryClientProvider, { client: queryClient }, node));
  return {
    el,
    unmount: () => {
      root.unmount();
      el.remove();
    },
  };
}

/** Resolves once `check` returns a value other than undefined; rejects after `ms`. */
export async function waitFor<T>(what: string, check: () => T | undefined, ms = 10_000): Promise<T> {
  const until = performance.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (performance.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The text of `[data-id=id]` inside `el`, when it is there. */
export const textOf = (el: HTMLElement, id: string): string | undefined =>
  el.querySelector(`[data-id="${id}"]`)?.textContent ?? undefined;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
