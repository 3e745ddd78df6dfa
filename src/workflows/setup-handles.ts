/**
 * `client.setupProcess(eid)`: one handle per eid, whose queue orders that setup's edits (Section 3).
 */

import { ValidationError } from "../errors/validation-error.ts";
import { pathParamIssues } from "../guards/path-params.ts";
import type { SetupProcess } from "./setup-process-types.ts";

/**
 * The client's `setupProcess` method over `create`, which makes a new handle for an eid; `onBusy`
 * is told when the handle starts and stops having edits to save.
 */
export function setupHandles(
  create: (eid: string, onBusy: (busy: boolean) => void) => SetupProcess,
): (eid: string) => SetupProcess {
  const handles = new HandleCache();
  return (given) => {
    const issues = pathParamIssues({ eid: given }, ["eid"]);
    if (issues.length) throw new ValidationError(issues.map((i) => ({ ...i, field: "eid" })));
    // An id given as a number is the id its text is (openapi-fetch sends 123 as "123"): one handle, one queue.
    const eid = String(given);
    const known = handles.get(eid);
    if (known) return known;
    const handle: SetupProcess = create(eid, (busy) => handles.busy(handle, busy));
    handles.set(eid, handle);
    return handle;
  };
}

/**
 * The handles, one per eid: held weakly, so a handle the caller dropped is released (they were
 * kept for ever, ~2.1 KB per eid), but strongly while it has edits waiting, in flight or kept
 * after a failure, so asking again for its eid finds the same queue. Without WeakRef (very old
 * runtimes) every handle is kept.
 */
class HandleCache {
  readonly #weak = new Map<string, WeakRef<SetupProcess> | SetupProcess>();
  readonly #busy = new Set<SetupProcess>();
  readonly #forget =
    typeof FinalizationRegistry === "function"
      ? new FinalizationRegistry<string>((eid) => {
          const held = this.#weak.get(eid);
          if (held instanceof WeakRef && held.deref() === undefined) this.#weak.delete(eid);
        })
      : undefined;

  get(eid: string): SetupProcess | undefined {
    const held = this.#weak.get(eid);
    return typeof WeakRef === "function" && held instanceof WeakRef ? held.deref() : (held as SetupProcess | undefined);
  }

  set(eid: string, handle: SetupProcess): void {
    this.#weak.set(eid, typeof WeakRef === "function" ? new WeakRef(handle) : handle);
    this.#forget?.register(handle, eid);
  }

  busy(handle: SetupProcess, busy: boolean): void {
    if (busy) this.#busy.add(handle);
    else this.#busy.delete(handle);
  }
}
