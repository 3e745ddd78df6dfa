/** `queryOptions(method, path, init?, options?)` over the client, keyed by partner. */
import type { AudienceClient } from "../client-types.ts";
import { callOnce } from "./call.ts";
import { queryKeyOf } from "./query-key.ts";
import type { HttpMethod, QueryOptionsFunction } from "./types.ts";

/**
 * TanStack's retry is off: the client already retries what may be repeated (Section 8.2: at most
 * 5 attempts in all), and a second layer would multiply them (3 retries × 5 attempts). It is set
 * after the caller's options, so a QueryClient default cannot turn it back on.
 */
export const ONE_LAYER_RETRIES = { retry: false } as const;

/** Builds the `queryOptions` of one client; `partner()` is read at each call (the key follows the partner). */
export function queryOptionsFor(client: AudienceClient, partner: () => string): QueryOptionsFunction {
  return ((method: HttpMethod, path: string, init?: object, options?: object) => ({
    ...options,
    queryKey: queryKeyOf(partner(), method, path, init as { params?: object } | undefined),
    queryFn: ({ signal }: { signal: AbortSignal }) => callOnce(client, method, path, init, signal),
    ...ONE_LAYER_RETRIES,
  })) as unknown as QueryOptionsFunction;
}
