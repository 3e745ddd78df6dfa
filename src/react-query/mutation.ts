/** `useMutation(method, path, options?, queryClient?)`: a write, then the reads it made stale refreshed. */
import { type QueryClient, useMutation, useQueryClient } from "@tanstack/react-query";
import { callOnce } from "./call.ts";
import { invalidateStale } from "./invalidate.ts";
import { ONE_LAYER_RETRIES } from "./query-options.ts";
import type { Binding } from "./read.ts";
import type { WriteKey } from "./stale-reads.ts";
import type { HttpMethod, UseMutationMethod } from "./types.ts";

type OnSuccess = (...args: unknown[]) => unknown;

const WRITE_METHODS: readonly unknown[] = ["post", "put", "patch", "delete"];

/** Builds `useMutation` of one client. */
export function mutationFor({ client, scope }: Binding): UseMutationMethod {
  return ((method: Exclude<HttpMethod, "get">, path: string, options = {}, queryClient?: QueryClient) => {
    // The reads a write makes stale are keyed by its lower-case method (STALE_READS): "POST" would
    // refresh nothing. Checked before any hook runs.
    if (!WRITE_METHODS.includes(method))
      throw new TypeError(
        'createQueryHooks: a mutation writes with "post", "put", "patch" or "delete" (method); a read goes through useQuery',
      );
    const cache = useQueryClient(queryClient);
    const { onSuccess, ...rest } = options as { onSuccess?: OnSuccess };
    // A write waits for nothing: its key names the tenant once known (nothing is cached under a mutation key).
    const tenant = scope.current();
    return useMutation(
      {
        ...rest,
        mutationKey: tenant ? [tenant, method, path] : [method, path],
        mutationFn: (init: unknown) => callOnce(client, method, path, init as object | undefined),
        // The stale reads first: the caller's onSuccess sees the cache already marked. The write's
        // call has named the partner; with none, no read of it can be cached either.
        onSuccess: async (...args: unknown[]) => {
          const now = scope.current();
          if (now) await invalidateStale(cache, now, `${method} ${path}` as WriteKey, args[1]);
          return onSuccess?.(...args);
        },
        // Writes are retried by the client where Section 3 allows it (never a blind POST repeat).
        ...ONE_LAYER_RETRIES,
      },
      queryClient,
    );
  }) as unknown as UseMutationMethod;
}
