/**
 * The drift watch (drift-watch.ts) behind a dynamic import: only a client given `onDrift` loads
 * it, on its first described response, so it stays out of what every other app loads for its first
 * calls. Responses observed before it has loaded are observed once it has, in their order (a drift
 * check runs after the call has its result anyway: it never delays, changes or fails a call).
 */
import type { OperationInfo } from "../../generated/operations.ts";
import { warnOnce } from "../internal/observed-logger.ts";
import type { DriftWatch } from "./drift-watch.ts";

/** What the engine tells the drift watch (drift-watch.ts `DriftWatch.observe`). */
export interface DriftObserver {
  observe(op: OperationInfo, response: Response, body: unknown, bodyRead: boolean): void;
}

export function lazyDrift(
  deps: ConstructorParameters<typeof DriftWatch>[0],
  warn: (message: string, error: unknown) => void,
): DriftObserver {
  let watch: DriftWatch | undefined;
  let loading: Promise<DriftWatch | undefined> | undefined;
  const unloadable = warnOnce(warn, "the drift check could not be loaded; tried again later");
  return {
    observe(...args) {
      if (watch) return watch.observe(...args);
      loading ??= import("./drift-watch.ts").then(
        (m) => (watch = new m.DriftWatch(deps)),
        (error: unknown) => {
          loading = undefined; // the next response tries again
          unloadable(error); // one line, not one per response while the chunk stays away
          return undefined;
        },
      );
      void loading.then((loaded) => loaded?.observe(...args));
    },
  };
}
