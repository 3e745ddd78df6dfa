/** Applies the stale-read map after a write succeeded (see stale-reads.ts). */
import type { QueryClient } from "@tanstack/react-query";
import { eidText, staleKeysOf, type WriteKey } from "./stale-reads.ts";
import type { QueryTenant } from "./tenant.ts";

/**
 * Marks the reads `write` made stale as invalid, for this tenant only, and refetches those on
 * screen; resolves once they are refetched (so a mutation stays pending until the screen is fresh).
 */
export async function invalidateStale(
  queryClient: QueryClient,
  tenant: QueryTenant,
  write: WriteKey,
  init: unknown,
): Promise<void> {
  await Promise.all(
    staleKeysOf(write, init).map(([method, path, params]) => {
      const queryKey = [tenant, method, path];
      const eid = pathOf(params)?.eid;
      // One event's reads, keyed by its eid's text or its number (eidText): not a prefix match.
      return queryClient.invalidateQueries(
        eid === undefined
          ? { queryKey }
          : { queryKey, predicate: (query) => eidText(pathOf(query.queryKey[3])?.eid) === eid },
      );
    }),
  );
}

/** A key's path parameters, if its params part has any. */
const pathOf = (params: unknown): { eid?: unknown } | undefined =>
  (params as { path?: { eid?: unknown } } | undefined)?.path;
