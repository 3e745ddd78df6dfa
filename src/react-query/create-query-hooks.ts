/** `createQueryHooks(client)`: the binding's hooks over one client, wired (the logic is in the files beside). */
import { useQuery, useSuspenseQuery } from "@tanstack/react-query";
import type { AudienceClient } from "../client-types.ts";
import { infiniteQueryFor } from "./infinite-query.ts";
import { mutationFor } from "./mutation.ts";
import { partnerKeyOf } from "./query-key.ts";
import { queryOptionsFor } from "./query-options.ts";
import { type SetupDraft, setupDraftFor } from "./setup-draft.ts";
import type {
  QueryOptionsFunction,
  UseInfiniteQueryMethod,
  UseMutationMethod,
  UseQueryMethod,
  UseSuspenseQueryMethod,
} from "./types.ts";

/** What {@link createQueryHooks} returns: openapi-react-query's shape, plus the wizard's draft. */
export interface AudienceQueryHooks {
  /** Query options for `useQueries`, `prefetchQuery`, `ensureQueryData`, keyed `[partnerId, method, path, params]`. */
  queryOptions: QueryOptionsFunction;
  /** A read, cached per partner; TanStack's retry off (the client retries). */
  useQuery: UseQueryMethod;
  /** As `useQuery`, suspending until the data is there. */
  useSuspenseQuery: UseSuspenseQueryMethod;
  /** A paged list (`/events/`, `/messages/partner/`): the binding supplies `page` and `limit`. */
  useInfiniteQuery: UseInfiniteQueryMethod;
  /** A write; on success the reads it makes stale (`STALE_READS`) are refreshed. */
  useMutation: UseMutationMethod;
  /** The campaign wizard's draft of one event (Section 3). */
  useSetupDraft: (eid: string) => SetupDraft;
}

/**
 * TanStack Query hooks over an Audience client, in openapi-react-query's shape, keyed by partner.
 *
 * @example
 * const api = createQueryHooks(client);
 * function Forecast({ eid }: { eid: string }) {
 *   const { data, error } = api.useQuery("get", "/events/{eid}/lookout_prediction", {
 *     params: { path: { eid }, query: { type: "capacity" } },
 *   });
 *   return error ? <p>{error.name}</p> : <pre>{JSON.stringify(data)}</pre>;
 * }
 */
export function createQueryHooks(client: AudienceClient): AudienceQueryHooks {
  const partner = partnerKeyOf(client);
  const queryOptions = queryOptionsFor(client, partner);
  const options = queryOptions as unknown as (...args: unknown[]) => Parameters<typeof useQuery>[0];
  return {
    queryOptions,
    useQuery: ((method: string, path: string, init?: object, opts?: object, queryClient?: never) =>
      useQuery(options(method, path, init, opts), queryClient)) as unknown as UseQueryMethod,
    useSuspenseQuery: ((method: string, path: string, init?: object, opts?: object, queryClient?: never) =>
      useSuspenseQuery(
        options(method, path, init, opts) as Parameters<typeof useSuspenseQuery>[0],
        queryClient,
      )) as unknown as UseSuspenseQueryMethod,
    useInfiniteQuery: infiniteQueryFor(client, partner),
    useMutation: mutationFor(client, partner),
    useSetupDraft: setupDraftFor(client, partner),
  };
}
