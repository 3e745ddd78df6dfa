/** `useMutation(method, path, options?, queryClient?)`: a write, then the reads it made stale refreshed. */
import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import type { AudienceClient } from "../client-types.ts";
import { callOnce } from "./call.ts";
import { invalidateStale } from "./invalidate.ts";
import { ONE_LAYER_RETRIES } from "./query-options.ts";
import type { WriteKey } from "./stale-reads.ts";
import type { HttpMethod, UseMutationMethod } from "./types.ts";

type OnSuccess = (...args: unknown[]) => unknown;

/** Builds `useMutation` of one client. */
export function mutationFor(client: AudienceClient, partner: () => string): UseMutationMethod {
  return ((method: Exclude<HttpMethod, "get">, path: string, options = {}, queryClient?: QueryClient) => {
    const cache = useQueryClient(queryClient);
    const { onSuccess, ...rest } = options as { onSuccess?: OnSuccess };
    const key = partner();
    return useMutation(
      {
        ...rest,
        mutationKey: [key, method, path],
        mutationFn: (init: unknown) => callOnce(client, method, path, init as object | undefined),
        // The stale reads first: the caller's onSuccess sees the cache already marked.
        onSuccess: async (...args: unknown[]) => {
          await invalidateStale(cache, key, `${method} ${path}` as WriteKey, args[1]);
          return onSuccess?.(...args);
        },
        // Writes are retried by the client where Section 3 allows it (never a blind POST repeat).
        ...ONE_LAYER_RETRIES,
      },
      queryClient,
    );
  }) as unknown as UseMutationMethod;
}
