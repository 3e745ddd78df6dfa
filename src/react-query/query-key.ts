/** The binding's cache keys: `[tenant, method, path, params]` (see AudienceQueryKey). */

import type { QueryTenant } from "./tenant.ts";
import type { AudienceQueryKey, HttpMethod } from "./types.ts";

/** The key of one read: the init's `params` only (headers, signal and parse options do not change the data). */
export function queryKeyOf(
  tenant: QueryTenant,
  method: HttpMethod,
  path: string,
  init: { params?: object } | undefined,
  ...tail: string[]
): AudienceQueryKey {
  return [tenant, method, path, init?.params ?? {}, ...tail];
}
