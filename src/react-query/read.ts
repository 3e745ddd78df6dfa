/** One read of the binding: its tenant (known first, see early-reads.ts), and its query function. */
import { hashKey } from "@tanstack/react-query";
import type { AudienceClient } from "../client-types.ts";
import type { EarlyReads } from "./early-reads.ts";
import type { QueryTenant, TenantScope } from "./tenant.ts";

/** What every hook of one `createQueryHooks` works with. */
export interface Binding {
  readonly client: AudienceClient;
  readonly scope: TenantScope;
  readonly early: EarlyReads;
}

/** The name of a read below its tenant (its key without the tenant), for early-reads.ts. */
export function readIdOf(method: string, path: string, init: { params?: object } | undefined, ...tail: string[]) {
  // TanStack sends a query again on mount, focus and reconnect: a write there would be repeated.
  // "GET" would be a second cache entry of the same read, one no write's refresh names.
  if (method !== "get")
    throw new TypeError('createQueryHooks: a query reads with "get" (method); a write goes through useMutation');
  return hashKey([method, path, init?.params ?? {}, ...tail]);
}

/**
 * The tenant for a read; while the partner is not known, suspends the rendering hook and sends the
 * read once (`call`) so that the client's call names the partner.
 */
export function tenantFor(binding: Binding, id: string, call: () => Promise<unknown>): QueryTenant {
  const { scope, early } = binding;
  return scope.current() ?? early.suspend(id, call, () => scope.current() !== undefined);
}

/** The query function of a read keyed by `tenant`: the early answer when one waits, else `call`. */
export function readFnOf<A extends { signal?: AbortSignal }>(
  binding: Binding,
  tenant: QueryTenant,
  id: string,
  call: (context: A) => Promise<unknown>,
): (context: A) => Promise<unknown> {
  return async (context) => {
    const data = await (binding.early.adopt(id) ?? call(context));
    binding.scope.check(tenant);
    return data;
  };
}
