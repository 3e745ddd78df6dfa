/**
 * `@audience-intelligence/client/react-query` — TanStack Query hooks over the client, in
 * openapi-react-query's shape: cache keys that name the partner and the environment, writes
 * that refresh the reads they change, one retry layer (the client's), paged lists as infinite
 * queries, and the campaign wizard's autosaved draft, one working draft for every component. React and `@tanstack/react-query` are optional peer dependencies,
 * needed by this entry only.
 * @module @audience-intelligence/client/react-query
 */
export { type AudienceQueryHooks, createQueryHooks, type QueryHooksOptions } from "./create-query-hooks.ts";
export type { DraftState, SetupDraft } from "./setup-draft.ts";
export { STALE_READS, type WriteKey } from "./stale-reads.ts";
export type { QueryTenant } from "./tenant.ts";
export type {
  AudienceQueryKey,
  DataOf,
  HttpMethod,
  InitOf,
  PagedInit,
  PagedPath,
  PathsWith,
  QueryError,
  QueryOptionsFunction,
  UseInfiniteQueryMethod,
  UseMutationMethod,
  UseQueryMethod,
  UseSuspenseQueryMethod,
} from "./types.ts";
