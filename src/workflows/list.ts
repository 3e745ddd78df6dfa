/** The list helpers' shared shape: a checked page size, then {@link paginate}. */

import type { AudienceClient } from "../client-types.ts";
import { environmentOf, inClient } from "../errors/client-context.ts";
import { ValidationError } from "../errors/validation-error.ts";
import { monotonicNow } from "../internal/clock.ts";
import { withSignal } from "../internal/with-signal.ts";
import { checkHelperClient, objectOptions } from "./call-options.ts";
import { withDeadline } from "./deadline.ts";
import { type PageRequest, pageOptionIssues, paginate } from "./paginate.ts";

/** Options of the list helpers ({@link listEvents} and the other `list…` functions). */
export interface ListOptions {
  /** Page size, at most the client's `maxPageLimit`. @default the client's maxPageLimit (100) */
  limit?: number;
  /** Stop after this many items. */
  maxItems?: number;
  /** Pages fetched at most; reaching it rejects the iteration. @default 10 000 */
  maxPages?: number;
  /** Aborting stops the iteration; no further page is fetched. */
  signal?: AbortSignal;
  /**
   * One deadline for the whole list, every page's request and wait included: a wait
   * (backoff, Retry-After, the pace) that would end after it fails at once, its error carrying
   * `retryAt`. Counted from the first page.
   */
  deadlineMs?: number;
  /** `"low"` reads the list in the partner's background lane (interactive calls go first). */
  priority?: "high" | "low" | "auto";
}

/** What a list helper spreads into each page's call: the signal, the deadline, the lane. */
export type PageCall = {
  signal?: AbortSignal;
  priority?: "high" | "low" | "auto";
} & ReturnType<typeof withDeadline>;

/** Items of `fetchPage`'s pages; `single: true` for endpoints that take a limit but no page. */
export function pagedList<T>(
  client: Pick<AudienceClient, "config"> & Partial<Pick<AudienceClient, "partnerId">>,
  options: ListOptions,
  fetchPage: (request: Required<Pick<PageRequest, "page" | "limit">> & PageCall) => Promise<unknown>,
  extra: { itemsOf?: (body: unknown) => T[]; single?: boolean } = {},
): AsyncIterableIterator<T> {
  checkHelperClient(client);
  try {
    return checkedList(client.config.maxPageLimit, objectOptions(options), fetchPage, extra);
  } catch (error) {
    // Refused before any call: the report names the client's partner and environment (Section 7).
    throw inClient(error, { partnerId: client.partnerId?.(), environment: environmentOf(client.config.baseUrl) });
  }
}

function checkedList<T>(
  max: number,
  options: ListOptions,
  fetchPage: (request: Required<Pick<PageRequest, "page" | "limit">> & PageCall) => Promise<unknown>,
  extra: { itemsOf?: (body: unknown) => T[]; single?: boolean },
): AsyncIterableIterator<T> {
  const limit = options.limit ?? max;
  if (!Number.isInteger(limit) || limit < 1 || limit > max) {
    throw new ValidationError([
      {
        field: "limit",
        message: `must be an integer from 1 to ${max}: bulk reads paginate, never one huge page (Section 8.5)`,
      },
    ]);
  }
  // Refused here, at the call, rather than at the first page (paginate checks it too).
  const rest = pageOptionIssues({
    limit,
    maxItems: options.maxItems,
    maxPages: options.maxPages,
    signal: options.signal,
  });
  if (rest.length > 0) throw new ValidationError(rest);
  return paginate<T>({
    limit,
    ...(options.maxItems === undefined ? {} : { maxItems: options.maxItems }),
    ...(options.maxPages === undefined ? {} : { maxPages: options.maxPages }),
    ...withSignal(options.signal),
    ...(options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs }),
    ...(extra.itemsOf ? { itemsOf: extra.itemsOf } : {}),
    fetchPage: async ({ page, limit, signal, deadlineMs }) =>
      extra.single && page > 1
        ? []
        : fetchPage({
            page,
            limit,
            ...withSignal(signal),
            ...withDeadline(deadlineMs === undefined ? undefined : monotonicNow() + deadlineMs),
            ...(options.priority ? { priority: options.priority } : {}),
          }),
  });
}
