/** `createQueryHooks(client, options?)`: the binding's hooks over one client, wired (the logic is in the files beside). */
import { useQuery, useSuspenseQuery } from "@tanstack/react-query";
import type { AudienceClient } from "../client-types.ts";
import { earlyReads } from "./early-reads.ts";
import { infiniteQueryFor } from "./infinite-query.ts";
import { mutationFor } from "./mutation.ts";
import { hookOptionsFor, queryOptionsFor } from "./query-options.ts";
import type { Binding } from "./read.ts";
import { type SetupDraft, setupDraftFor } from "./setup-draft.ts";
import { tenantScope } from "./tenant.ts";
import type {
  QueryOptionsFunction,
  UseInfiniteQueryMethod,
  UseMutationMethod,
  UseQueryMethod,
  UseSuspenseQueryMethod,
} from "./types.ts";

/** What {@link createQueryHooks} returns: openapi-react-query's shape, plus the wizard's draft. */
export interface AudienceQueryHooks {
  /**
   * Query options for `useQueries`, `prefetchQuery`, `ensureQueryData`, keyed
   * `[{ partner, environment }, method, path, params]`. Throws a TypeError while the partner is not known.
   */
  queryOptions: QueryOptionsFunction;
  /** A read, cached per partner; TanStack's retry off (the client retries). */
  useQuery: UseQueryMethod;
  /** As `useQuery`, suspending until the data is there. */
  useSuspenseQuery: UseSuspenseQueryMethod;
  /** A paged list (`/events/`, `/messages/partner/`): the binding supplies `page` and `limit`. */
  useInfiniteQuery: UseInfiniteQueryMethod;
  /** A write; on success the reads it makes stale (`STALE_READS`) are refreshed. */
  useMutation: UseMutationMethod;
  /** The campaign wizard's draft of one event (Section 3): one working draft for every component of it. */
  useSetupDraft: (eid: string) => SetupDraft;
}

/** Options of {@link createQueryHooks}. */
export interface QueryHooksOptions {
  /**
   * The partner whose data these hooks read, when the client does not know it yet (it takes it
   * from the IdToken at its first call): the key names it from the first render, as a server
   * renders it. Must be the client's; an answer for another partner is refused, never cached.
   * @default the client's `partnerId()`; until the client knows it, the hooks suspend (render
   * them under `<Suspense>`) while their first reads are sent, once each
   */
  partnerId?: string;
}

/**
 * TanStack Query hooks over an Audience client, in openapi-react-query's shape, keyed by tenant
 * (the partner and the environment).
 *
 * @example
 * const api = createQueryHooks(client, { partnerId });
 * function Forecast({ eid }: { eid: string }) {
 *   const { data, error } = api.useQuery("get", "/events/{eid}/lookout_prediction", {
 *     params: { path: { eid }, query: { type: "capacity" } },
 *   });
 *   return error ? <p>{error.name}</p> : <pre>{JSON.stringify(data)}</pre>;
 * }
 */
export function createQueryHooks(client: AudienceClient, options: QueryHooksOptions = {}): AudienceQueryHooks {
  const given = client as Partial<AudienceClient> | null | undefined;
  if (typeof given?.GET !== "function" || typeof given.partnerId !== "function" || typeof given.config !== "object")
    throw new TypeError("createQueryHooks: client must be an AudienceClient (what createAudienceClient() returns)");
  // Null is no options, as for every helper of the package; a partner id alone is not them.
  if (options != null && (typeof options !== "object" || Array.isArray(options)))
    throw new TypeError("createQueryHooks: options must be an object, such as { partnerId }");
  const binding: Binding = { client, scope: tenantScope(client, options?.partnerId), early: earlyReads() };
  const read = hookOptionsFor(binding) as unknown as (...args: unknown[]) => Parameters<typeof useQuery>[0];
  return {
    queryOptions: queryOptionsFor(binding),
    useQuery: ((method: string, path: string, init?: object, opts?: object, queryClient?: never) =>
      useQuery(read(method, path, init, opts), queryClient)) as unknown as UseQueryMethod,
    useSuspenseQuery: ((method: string, path: string, init?: object, opts?: object, queryClient?: never) =>
      useSuspenseQuery(
        read(method, path, init, opts) as Parameters<typeof useSuspenseQuery>[0],
        queryClient,
      )) as unknown as UseSuspenseQueryMethod,
    useInfiniteQuery: infiniteQueryFor(binding),
    useMutation: mutationFor(binding),
    useSetupDraft: setupDraftFor(binding),
  };
}
