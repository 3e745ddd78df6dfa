/**
 * How this package's helpers tell the client what a call's public init has no field for: the
 * helper's deadline spanning its calls (`deadlineMs`) and a poll's own retry schedule. They go
 * under one symbol-keyed field of the init (`helperInit`), which the engine's prepare step reads
 * into the call (call.ts) and removes: openapi-fetch, a middleware and a `fetch` never see it, and
 * no string key of the init is the client's. (`signal` and `priority` are the Fetch standard's own
 * fields and go as they are.)
 */

/** What a helper sets for one call. */
export interface HelperOptions {
  /** Monotonic ms by which the call must end (workflows/deadline.ts). */
  readonly deadlineAt?: number | undefined;
  /** False: no transport retries (workflows/poll-call.ts). */
  readonly transportRetries?: false;
}

/** The init field: a symbol, so no string key of an init is the client's (read in prepare.ts). */
export const HELPER = Symbol();

/** Spread into a call's init. Nothing for no options, so a plain call allocates nothing. */
export function helperInit(options: HelperOptions): { [HELPER]?: HelperOptions } {
  return (options.deadlineAt ?? options.transportRetries) === undefined ? {} : { [HELPER]: options };
}
