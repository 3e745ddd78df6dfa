import { pageItemsOf } from "../assumptions.ts";
import { AudienceError } from "../errors/audience-error.ts";
import { TimeoutError } from "../errors/network-error.ts";
import { ValidationError, type ValidationIssue } from "../errors/validation-error.ts";
import { signalIssues, throwIfAborted } from "../internal/abort-signal.ts";
import { monotonicNow } from "../internal/clock.ts";
import { CLIENT_DEFAULTS } from "../limits.ts";
import { deadlineAt } from "./deadline.ts";
import { pageEnd } from "./page-end.ts";

/** What {@link PaginateOptions.fetchPage} is asked for. */
export interface PageRequest {
  /** The page number, counted from `firstPage`. */
  readonly page: number;
  /** The page size to ask for. */
  readonly limit: number;
  /** The iteration's signal, to pass on to the request. */
  readonly signal?: AbortSignal;
  /** Ms left of the iteration's `deadlineMs`, to pass on as the request's deadline. */
  readonly deadlineMs?: number;
}

/** Options of {@link paginate}. */
export interface PaginateOptions<T> {
  /** Fetches one page and returns its parsed body. */
  readonly fetchPage: (page: PageRequest) => Promise<unknown>;
  /**
   * The items of a page body. The default does not check the items' shape: give `itemsOf` when
   * `T` is more than `unknown`.
   * @default pageItemsOf (a bare array, or the `items` array of an object)
   */
  readonly itemsOf?: (body: unknown) => T[];
  /**
   * Page size. Not checked here: the caller has already refused sizes the API must not see
   * (Section 8.5: never `limit=10000`).
   */
  readonly limit: number;
  /** @default 1 */
  readonly firstPage?: number;
  /** Stop after this many items, without fetching a page that would go beyond them. */
  readonly maxItems?: number;
  /**
   * Pages fetched at most: a server that never ends a list would otherwise keep the iteration
   * going for ever. Reaching it rejects the iteration, naming the option (never a silent stop).
   * @default CLIENT_DEFAULTS.maxPages (10 000)
   */
  readonly maxPages?: number;
  /** Aborting rejects the iteration with the signal's reason; no further page is fetched. */
  readonly signal?: AbortSignal;
  /**
   * One deadline for the whole iteration, counted from the first page: each page's
   * request gets the time left (`PageRequest.deadlineMs`), and no page starts after it (a
   * TimeoutError). Time the consumer spends between pages counts too.
   */
  readonly deadlineMs?: number;
}

/**
 * Iterates over a paginated list (Section 2: `page`, `limit`), one page at a time: a page is
 * fetched only when the consumer reaches it, and only the current page is held in memory.
 * Stops after a short page (fewer than `limit` items), an empty page, a page that repeats the
 * previous one (a server that answers the last page again for any later page, as Django's
 * `Paginator.get_page()` does), `maxItems` items, or when the consumer stops iterating (`break`,
 * `return`, a throw); `maxPages` bounds it.
 *
 * @example
 * for await (const event of paginate({
 *   limit: 100,
 *   fetchPage: ({ page, limit, signal }) => api.GET("/events/", { params: { query: { page, limit } }, signal }).then((r) => r.data),
 * })) {
 *   console.log(event);
 * }
 */
export async function* paginate<T = unknown>(options: PaginateOptions<T>): AsyncIterableIterator<T> {
  if (typeof options !== "object" || options === null)
    throw new ValidationError([{ field: "options", message: "must be an object with fetchPage and limit" }]);
  const { fetchPage, limit, signal } = options;
  const itemsOf = options.itemsOf ?? (pageItemsOf as (body: unknown) => T[]);
  let remaining = options.maxItems ?? Number.POSITIVE_INFINITY;
  const issues = pageOptionIssues(options);
  // From JavaScript these may be missing; they would fail at the first page as a bare "is not a function".
  if (typeof fetchPage !== "function") issues.push({ field: "fetchPage", message: "must be a function" });
  if (typeof itemsOf !== "function") issues.push({ field: "itemsOf", message: "must be a function" });
  if (issues.length > 0) throw new ValidationError(issues);

  const maxPages = options.maxPages ?? CLIENT_DEFAULTS.maxPages;
  let at: number | undefined; // set when the first page is asked for
  let previous: string | undefined; // the previous page, as JSON, to see it repeated
  const first = options.firstPage ?? 1;
  for (let page = first; remaining > 0; page++) {
    throwIfAborted(signal);
    if (page - first >= maxPages)
      throw new AudienceError(
        `the list did not end within ${maxPages} pages (maxPages); the server keeps answering full pages`,
        { expected: "a short, empty or repeated page" },
      );
    at ??= deadlineAt(options.deadlineMs);
    const left = at === undefined ? undefined : at - monotonicNow();
    if (left !== undefined && left <= 0)
      throw new TimeoutError(`the list did not finish within deadlineMs (${options.deadlineMs} ms)`, {
        expected: "the whole list within deadlineMs",
      });
    const body = await fetchPage({
      page,
      limit,
      ...(signal ? { signal } : {}),
      ...(left === undefined ? {} : { deadlineMs: left }),
    });
    // fetchPage may ignore the signal; an abort during the fetch still ends the iteration here.
    throwIfAborted(signal);
    const items = itemsOf(body);
    const end = pageEnd(items, previous, limit);
    if (end.repeated) return; // the last page, answered again
    previous = end.signature;
    for (const item of items) {
      if (remaining <= 0) return;
      remaining--;
      yield item;
      throwIfAborted(signal); // the consumer may have aborted while handling the item
    }
    if (end.last) return;
  }
}

/**
 * What {@link paginate} refuses: a `limit` of 0 or NaN never makes a page "short", so the loop
 * would run for as long as the API answers full pages; a NaN `maxItems` silently yielded nothing, and
 * one that is no number was compared as one ("" yielded nothing, "5" five items).
 */
export function pageOptionIssues(options: {
  readonly limit: number;
  readonly maxItems?: number | undefined;
  readonly firstPage?: number | undefined;
  readonly maxPages?: number | undefined;
  readonly signal?: unknown;
}): ValidationIssue[] {
  // A signal that is none threw a raw TypeError at the first page (`signal.throwIfAborted`).
  const issues: ValidationIssue[] = signalIssues(options.signal);
  if (!Number.isInteger(options.limit) || options.limit < 1)
    issues.push({ field: "limit", message: "must be a positive integer" });
  const { maxItems } = options;
  if (maxItems !== undefined && !(maxItems >= 0 && (Number.isInteger(maxItems) || maxItems === Infinity)))
    issues.push({ field: "maxItems", message: "must be a whole number, 0 or more (Infinity for no limit)" });
  if (options.maxPages !== undefined && !(Number.isInteger(options.maxPages) && options.maxPages >= 1))
    issues.push({ field: "maxPages", message: "must be a positive integer" });
  if (options.firstPage !== undefined && !Number.isInteger(options.firstPage))
    issues.push({ field: "firstPage", message: "must be an integer" });
  return issues;
}
