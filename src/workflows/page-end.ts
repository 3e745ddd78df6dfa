/**
 * Where a list ends (Section 2 and 4: `page`, `limit`), one rule for every reader of a list: the
 * `paginate` iterator and the React Query binding's infinite queries.
 */

/** What a page says about the list, given the page before it. */
export interface PageEnd {
  /** The page as JSON, to compare with the next; undefined (never equal) when empty or not serializable. */
  readonly signature: string | undefined;
  /**
   * The page repeats the previous one: a server that answers the last page again for any later
   * page (as Django's `Paginator.get_page()` does). Its items were already read.
   */
  readonly repeated: boolean;
  /** No page follows: this one is empty or short (fewer than `limit` items), or repeated. */
  readonly last: boolean;
}

/** Judges one page of `limit` items asked for, after the page whose signature is `previous`. */
export function pageEnd(items: readonly unknown[], previous: string | undefined, limit: number): PageEnd {
  const signature = pageSignature(items);
  const repeated = signature !== undefined && signature === previous;
  return { signature, repeated, last: repeated || items.length === 0 || items.length < limit };
}

/** A page as JSON; undefined (never equal) when it is empty or cannot be serialized. */
export function pageSignature(items: readonly unknown[]): string | undefined {
  if (items.length === 0) return undefined;
  try {
    return JSON.stringify(items);
  } catch {
    return undefined;
  }
}
