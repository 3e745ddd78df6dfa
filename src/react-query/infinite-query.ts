/**
 * Paged lists as infinite queries (Section 4: `page`, `limit`): the binding supplies the page
 * number and the page size (the client's page cap, never more: Section 8.5) and ends the list
 * with `listEvents`' rule (a short, empty or repeated page: workflows/page-end.ts).
 */
import { type InfiniteData, type QueryClient, useInfiniteQuery } from "@tanstack/react-query";
import { pageItemsOf } from "../assumptions.ts";
import { pageEnd, pageSignature } from "../workflows/page-end.ts";
import { callOnce } from "./call.ts";
import { queryKeyOf } from "./query-key.ts";
import { ONE_LAYER_RETRIES } from "./query-options.ts";
import { type Binding, readFnOf, readIdOf, tenantFor } from "./read.ts";
import type { UseInfiniteQueryMethod } from "./types.ts";

type Pages = InfiniteData<unknown, number>;
const itemsOf = (page: unknown): unknown[] => pageItemsOf(page as Parameters<typeof pageItemsOf>[0]);

/** The next page number, or undefined when the last page read ends the list. */
export function nextPageOf(pages: readonly unknown[], lastPage: number, limit: number): number | undefined {
  const last = pages.at(-1);
  const before = pages.length > 1 ? pageSignature(itemsOf(pages.at(-2))) : undefined;
  return pageEnd(itemsOf(last), before, limit).last ? undefined : lastPage + 1;
}

/** The pages without a trailing page that repeats the one before it (its items were already shown). */
export function withoutRepeat(data: Pages): Pages {
  const n = data.pages.length;
  if (n < 2 || !pageEnd(itemsOf(data.pages[n - 1]), pageSignature(itemsOf(data.pages[n - 2])), 1).repeated) return data;
  return { pages: data.pages.slice(0, -1), pageParams: data.pageParams.slice(0, -1) };
}

/** Builds `useInfiniteQuery` of one client. */
export function infiniteQueryFor(binding: Binding): UseInfiniteQueryMethod {
  const { client } = binding;
  return ((
    method: "get",
    path: string,
    init?: { params?: { query?: object } },
    options = {},
    queryClient?: QueryClient,
  ) => {
    const limit = client.config.maxPageLimit;
    const { select, ...rest } = options as { select?: (data: Pages) => unknown };
    const page = (pageParam: number, signal?: AbortSignal) => {
      const query = { ...init?.params?.query, page: pageParam, limit };
      return callOnce(client, method, path, { ...init, params: { ...init?.params, query } }, signal);
    };
    // The first page is the read sent early while the partner is not known (early-reads.ts).
    const id = readIdOf(method, path, init, "infinite");
    const tenant = tenantFor(binding, id, () => page(1));
    const first = readFnOf(binding, tenant, id, ({ signal }: { signal?: AbortSignal }) => page(1, signal));
    const later = async (pageParam: number, signal: AbortSignal) => {
      const data = await page(pageParam, signal);
      binding.scope.check(tenant);
      return data;
    };
    return useInfiniteQuery(
      {
        ...rest,
        queryKey: queryKeyOf(tenant, method, path, init, "infinite"),
        queryFn: (context: { pageParam: number; signal: AbortSignal }) =>
          context.pageParam === 1 ? first(context) : later(context.pageParam, context.signal),
        initialPageParam: 1,
        getNextPageParam: (_last: unknown, pages: unknown[], lastPage: number) => nextPageOf(pages, lastPage, limit),
        select: (data: Pages) => (select ? select(withoutRepeat(data)) : withoutRepeat(data)),
        ...ONE_LAYER_RETRIES,
      },
      queryClient,
    );
  }) as unknown as UseInfiniteQueryMethod;
}
