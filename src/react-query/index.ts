/**
 * `@audience-intelligence/client/react-query` — TanStack Query hooks over the client, in
 * openapi-react-query's shape: cache keys that carry the partner, writes that refresh the reads
 * they change, one retry layer (the client's), paged lists as infinite queries, and the campaign
 * wizard's autosaved draft. React and `@tanstack/react-query` are optional peer dependencies,
 * needed by this entry only.
 * @module @audience-intelligence/client/react-query
 */
export { type AudienceQueryHooks, createQueryHooks } from "./create-query-hooks.ts";
export type { DraftState, SetupDraft } from "./setup-draft.ts";
export { STALE_READS, type WriteKey } from "./stale-reads.ts";
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
