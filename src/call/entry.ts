/**
 * The engine's entry for one call (`Engine.call`): its deadline, counted from the moment the
 * caller made it (call/after-load.ts), then the prepare step — bounded by the call's signal and
 * deadline while it waits for the request schemas — then admit.
 */
import { monotonicNow } from "../internal/clock.ts";
import { operationOf } from "../internal/operation-index.ts";
import { callDeadline, deadlineBeforeSending, whileLoading } from "./after-load.ts";
import type { Call } from "./call.ts";
import type { Prepare } from "./prepare.ts";

/** The path when it is a template of the description; a path outside it may hold a value. */
const described = (method: string, path: string): string | undefined =>
  operationOf(method, path) === undefined ? undefined : path;

export interface EntryDeps {
  readonly prepare: Prepare;
  readonly admit: (call: Call) => Promise<unknown>;
  /** The client's `retry.deadlineMs`. */
  readonly deadlineMs: number | undefined;
  /** A refusal before sending, completed with the partner and environment (Section 7). */
  readonly inClient: (error: unknown) => unknown;
}

export function createEntry(deps: EntryDeps) {
  const { prepare, admit } = deps;
  // Built once per client: a closure per call is garbage on every call that is not refused.
  const refused = (error: unknown) => Promise.reject(deps.inClient(error));
  return (
    method: string,
    path: string,
    init: Record<string, unknown> | undefined,
    askedAt = monotonicNow(),
  ): Promise<unknown> => {
    try {
      const at = callDeadline(init, deps.deadlineMs, askedAt);
      // A call that waited for the engine's load: a deadline that passed meanwhile ends it unsent.
      if (at !== undefined && monotonicNow() >= at)
        return refused(deadlineBeforeSending(method, described(method, path), askedAt, at));
      const call = prepare(method, path, init, at === undefined ? undefined : { at, askedAt });
      if (!(call instanceof Promise)) return admit(call);
      // The request schemas are still loading: the call's signal and deadline bound that wait.
      return whileLoading(
        (start) => call.then((ready) => (start() ? admit(ready) : undefined), refused),
        init?.signal,
        at,
        () => deps.inClient(deadlineBeforeSending(method, described(method, path), askedAt, at as number)) as Error,
      );
    } catch (error) {
      return refused(error);
    }
  };
}
