/** Applies the stale-read map after a write succeeded (see stale-reads.ts). */
import type { QueryClient } from "@tanstack/react-query";
import { staleKeysOf, type WriteKey } from "./stale-reads.ts";
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
    staleKeysOf(write, init).map((key) => queryClient.invalidateQueries({ queryKey: [tenant, ...key] })),
  );
}
