/**
 * The binding's types: openapi-react-query's call shapes (lower-case method, path, init, options,
 * query client) over the client's paths, with the client's typed errors and the tenant in the key.
 */
import type {
  InfiniteData,
  QueryClient,
  UseInfiniteQueryOptions,
  UseInfiniteQueryResult,
  UseMutationOptions,
  UseMutationResult,
  UseQueryOptions,
  UseQueryResult,
  UseSuspenseQueryOptions,
  UseSuspenseQueryResult,
} from "@tanstack/react-query";
import type { FetchResponse, MaybeOptionalInit } from "openapi-fetch";
import type { AudienceError } from "../errors/audience-error.ts";
import type { ClientPaths } from "../types.ts";
import type { QueryTenant } from "./tenant.ts";

/** The HTTP methods, lower-case as openapi-react-query has them. */
export type HttpMethod = "get" | "put" | "post" | "delete" | "patch";

/** The paths that have `method`. */
export type PathsWith<M extends HttpMethod> = {
  [P in keyof ClientPaths]: ClientPaths[P] extends { [K in M]: object } ? P : never;
}[keyof ClientPaths];

/** The init of a call (`params`, `body`, …), `undefined` allowed when nothing in it is required. */
export type InitOf<M extends HttpMethod, P extends PathsWith<M>> = MaybeOptionalInit<ClientPaths[P], M>;

/** The parsed body of a successful call. */
export type DataOf<M extends HttpMethod, P extends PathsWith<M>> = NonNullable<
  FetchResponse<ClientPaths[P][M] & Record<string | number, unknown>, InitOf<M, P>, `${string}/${string}`>["data"]
>;

/**
 * `[{ partner, environment }, method, path, params]`: a partner's data is never served to another
 * partner, nor one environment's to another. The partner is known before a key is made (given,
 * or the client's), never guessed. Infinite queries add `"infinite"`, the setup draft `"draft"`:
 * their data has another shape than the plain read's.
 */
export type AudienceQueryKey = readonly [
  tenant: QueryTenant,
  method: HttpMethod,
  path: string,
  params: object,
  ...string[],
];

/** The error a query or mutation of the binding fails with: the client's typed errors. */
export type QueryError = AudienceError;

/** Rest arguments whose init is optional exactly when the operation requires nothing. */
type Args<Init, Rest extends unknown[]> = undefined extends Init ? [init?: Init, ...Rest] : [init: Init, ...Rest];

type QueryOpts<D, S> = Omit<UseQueryOptions<D, QueryError, S, AudienceQueryKey>, "queryKey" | "queryFn">;
type SuspenseOpts<D, S> = Omit<UseSuspenseQueryOptions<D, QueryError, S, AudienceQueryKey>, "queryKey" | "queryFn">;

/** `queryOptions(method, path, init?, options?)`: for `useQueries`, `prefetchQuery`, `ensureQueryData`. */
export type QueryOptionsFunction = <M extends "get", P extends PathsWith<M>, S = DataOf<M, P>>(
  method: M,
  path: P,
  ...args: Args<InitOf<M, P>, [options?: QueryOpts<DataOf<M, P>, S>]>
) => UseQueryOptions<DataOf<M, P>, QueryError, S, AudienceQueryKey> & {
  /** `[{ partner, environment }, method, path, params]`. */
  queryKey: AudienceQueryKey;
  /** The call through the client; rejects with its typed error. */
  queryFn: (context: { signal: AbortSignal }) => Promise<DataOf<M, P>>;
};

/** `useQuery(method, path, init?, options?, queryClient?)`. */
export type UseQueryMethod = <M extends "get", P extends PathsWith<M>, S = DataOf<M, P>>(
  method: M,
  path: P,
  ...args: Args<InitOf<M, P>, [options?: QueryOpts<DataOf<M, P>, S>, queryClient?: QueryClient]>
) => UseQueryResult<S, QueryError>;

/** `useSuspenseQuery(method, path, init?, options?, queryClient?)`. */
export type UseSuspenseQueryMethod = <M extends "get", P extends PathsWith<M>, S = DataOf<M, P>>(
  method: M,
  path: P,
  ...args: Args<InitOf<M, P>, [options?: SuspenseOpts<DataOf<M, P>, S>, queryClient?: QueryClient]>
) => UseSuspenseQueryResult<S, QueryError>;

/** The paged list endpoints (Section 4: `page` and `limit` in the query). */
export type PagedPath = {
  [P in PathsWith<"get">]: ClientPaths[P]["get"] extends {
    /** The operation's parameters. */
    parameters: {
      /** Its query. */
      query?: infer Q;
    };
  }
    ? [NonNullable<Q>] extends [never]
      ? never
      : "page" extends keyof NonNullable<Q>
        ? P
        : never
    : never;
}[PathsWith<"get">];

/** The init of a paged list without its paging: the binding supplies `page` and `limit`. */
export type PagedInit<P extends PagedPath> = Omit<NonNullable<InitOf<"get", P>>, "params"> & {
  /** The call's parameters. */
  params?: {
    /** The query without `page` and `limit`. */
    query?: Omit<NonNullable<NonNullable<NonNullable<InitOf<"get", P>>["params"]>["query"]>, "page" | "limit">;
  };
};

type InfiniteOpts<D, S> = Omit<
  UseInfiniteQueryOptions<D, QueryError, S, AudienceQueryKey, number>,
  "queryKey" | "queryFn" | "initialPageParam" | "getNextPageParam" | "getPreviousPageParam"
>;

/** `useInfiniteQuery("get", path, init?, options?, queryClient?)` over a paged list. */
export type UseInfiniteQueryMethod = <P extends PagedPath, S = InfiniteData<DataOf<"get", P>, number>>(
  method: "get",
  path: P,
  init?: PagedInit<P>,
  options?: InfiniteOpts<DataOf<"get", P>, S>,
  queryClient?: QueryClient,
) => UseInfiniteQueryResult<S, QueryError>;

/** `useMutation(method, path, options?, queryClient?)`; `mutate(init)` sends it. */
export type UseMutationMethod = <M extends Exclude<HttpMethod, "get">, P extends PathsWith<M>, C = unknown>(
  method: M,
  path: P,
  options?: Omit<UseMutationOptions<DataOf<M, P>, QueryError, InitOf<M, P>, C>, "mutationKey" | "mutationFn">,
  queryClient?: QueryClient,
) => UseMutationResult<DataOf<M, P>, QueryError, InitOf<M, P>, C>;
