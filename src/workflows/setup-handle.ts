/**
 * The handle `client.setupProcess(eid)` returns, the client's from the start: its eid and state
 * (the client's SetupStates, which the guards every call passes keep) at once; its work
 * (setup-process.ts: the queues of the draft and of the published clusters, the calls of a
 * setup's life, all through the client's own calls) comes with the client's lazily loaded code,
 * which needs no engine built. Work asked before that code has loaded runs once it has, in the
 * order it was asked (every handle method returns a promise, so waiting changes nothing a caller
 * sees); once it is loaded, work starts at once, an autosave's debounce from the moment it is asked.
 */

import { inOrder, type LazyModule } from "../internal/lazy-module.ts";
import type { SetupWork } from "./setup-process.ts";
import type { SetupProcess } from "./setup-process-types.ts";
import type { SetupStates } from "./setup-state.ts";

/** Module-level, so the pending import holds no handle (an idle handle is released when dropped). */
const ignore = (): void => {};

/** `eid`'s handle over `states`; `open` makes its work from `code` once that is loaded. */
export function setupHandle<M>(
  eid: string,
  states: SetupStates,
  code: LazyModule<M>,
  open: (module: M) => SetupWork,
): SetupProcess {
  let work: SetupWork | undefined;
  const line = inOrder(code.load);
  const run =
    <K extends keyof SetupWork>(method: K, quiet = false) =>
    (...args: Parameters<SetupWork[K]>): ReturnType<SetupWork[K]> => {
      type Method = (...a: typeof args) => ReturnType<SetupWork[K]>;
      const done = line(code.current() !== undefined, () => {
        work ??= open(code.current() as M);
        return (work[method] as Method)(...args);
      }) as ReturnType<SetupWork[K]>;
      // As an autosave's own promise: ignoring it is safe (its failure stays pending for a flush).
      if (quiet) done.catch(ignore);
      return done;
    };
  return {
    eid,
    get state() {
      return states.get(eid);
    },
    load: run("load"),
    create: run("create"),
    update: run("update"),
    autosave: run("autosave", true),
    flush: run("flush"),
    publish: run("publish"),
    cancel: run("cancel"),
    editPublishedCluster: run("editPublishedCluster"),
    autosavePublishedCluster: run("autosavePublishedCluster", true),
  };
}
