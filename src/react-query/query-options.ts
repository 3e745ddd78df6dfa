/** `queryOptions(method, path, init?, options?)` over the client, keyed by tenant. */
import { callOnce } from "./call.ts";
import { queryKeyOf } from "./query-key.ts";
import { type Binding, readFnOf, readIdOf, tenantFor } from "./read.ts";
import type { QueryTenant } from "./tenant.ts";
import type { HttpMethod, QueryOptionsFunction } from "./types.ts";

/**
 * TanStack's retry is off: the client already retries what may be repeated (Section 8.2: at most
 * 5 attempts in all), and a second layer would multiply them (3 retries × 5 attempts). It is set
 * after the caller's options, so a QueryClient default cannot turn it back on.
 */
export const ONE_LAYER_RETRIES = { retry: false } as const;

type Init = { params?: object } | undefined;

/** The options of one read keyed by `tenant`. */
function readOptions(
  binding: Binding,
  tenant: QueryTenant,
  method: HttpMethod,
  path: string,
  init: Init,
  options?: object,
) {
  const call = ({ signal }: { signal?: AbortSignal }) => callOnce(binding.client, method, path, init, signal);
  return {
    ...options,
    queryKey: queryKeyOf(tenant, method, path, init),
    queryFn: readFnOf(binding, tenant, readIdOf(method, path, init), call),
    ...ONE_LAYER_RETRIES,
  };
}

/**
 * Builds the `queryOptions` of one client. Outside a component nothing can wait for the partner:
 * while it is not known, this throws (a TypeError that says how to give it).
 */
export function queryOptionsFor(binding: Binding): QueryOptionsFunction {
  return ((method: HttpMethod, path: string, init?: Init, options?: object) =>
    readOptions(binding, binding.scope.require(), method, path, init, options)) as unknown as QueryOptionsFunction;
}

/** The options a hook reads with: the same, once the partner is known (the hook suspends until then). */
export function hookOptionsFor(binding: Binding) {
  return (method: HttpMethod, path: string, init?: Init, options?: object) => {
    const tenant = tenantFor(binding, readIdOf(method, path, init), () => callOnce(binding.client, method, path, init));
    return readOptions(binding, tenant, method, path, init, options);
  };
}
