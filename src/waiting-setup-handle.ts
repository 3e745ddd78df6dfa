/**
 * A setup handle given out before the client's engine was built (setup handles are the engine's:
 * it owns the setup states their guards read): the object `eid` finds while the caller holds it or
 * it has work (setup-handles.ts), whose methods run on the real handle, in the order they were
 * called, once the engine is built. Its state is "unknown" until then: nothing can have been observed.
 */

import type { LazyEngine } from "./lazy-engine.ts";
import type { SetupProcess } from "./workflows/setup-process-types.ts";

export function waitingSetupHandle(eid: string, engine: LazyEngine, onBusy: (busy: boolean) => void): SetupProcess {
  let real: SetupProcess | undefined;
  // Attached when the engine is built, before any work waiting for it runs.
  engine.whenBuilt((built) => {
    real = built.setupProcess(eid, onBusy);
  });
  const later =
    <K extends Exclude<keyof SetupProcess, "eid" | "state">>(method: K, quiet = false) =>
    (...args: Parameters<SetupProcess[K]>): ReturnType<SetupProcess[K]> => {
      type Method = (...a: typeof args) => ReturnType<SetupProcess[K]>;
      const done = engine.onEngine(() => ((real as SetupProcess)[method] as Method)(...args)) as ReturnType<
        SetupProcess[K]
      >;
      // As the real autosaves: ignoring their promise is safe.
      if (quiet) done.catch(() => {});
      return done;
    };
  return {
    eid,
    get state() {
      return real?.state ?? "unknown";
    },
    load: later("load"),
    create: later("create"),
    update: later("update"),
    autosave: later("autosave", true),
    flush: later("flush"),
    publish: later("publish"),
    cancel: later("cancel"),
    editPublishedCluster: later("editPublishedCluster"),
    autosavePublishedCluster: later("autosavePublishedCluster", true),
  };
}
