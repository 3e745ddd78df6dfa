/**
 * The rate-state watch (rate-state-watch.ts) behind a dynamic import: only a client given
 * `onRateStateChange` loads it, on its first response, so it stays out of what every other app
 * loads for its first calls. A check asked for while it loads runs once it has (it reads the state
 * then: nothing is lost, the latest state is what is reported). A watch that cannot load never
 * fails a call; a later response tries again, and the logger is told once.
 */
import { warnOnce } from "../internal/observed-logger.ts";
import { MAX_TIMER_MS, setBoundedTimeout } from "../internal/timers.ts";
import type { RateState } from "../rate-state.ts";
import type { RateStateWatch, SetTimer } from "./rate-state-watch.ts";

export type RateCheck = RateStateWatch["check"];

/** A cool-down may end past the longest timer (a Retry-After of years): the watch looks again then. */
const setTimer: SetTimer = (fn, ms) => {
  const timer = setBoundedTimeout(fn, Math.min(ms, MAX_TIMER_MS));
  (timer as { unref?: () => void }).unref?.(); // a watch never keeps a process alive
  return timer;
};

export function lazyRateWatch(
  onChange: (state: RateState) => void,
  warn: (message: string, error: unknown) => void,
): RateCheck {
  let watch: RateStateWatch | undefined;
  let loading: Promise<RateStateWatch | undefined> | undefined;
  const unloadable = warnOnce(warn, "the rate-state watch could not be loaded; tried again later");
  return (key, snapshot, quietLeft) => {
    if (watch) return watch.check(key, snapshot, quietLeft);
    loading ??= import("./rate-state-watch.ts").then(
      (m) => (watch = new m.RateStateWatch(onChange, warn, setTimer)),
      (error: unknown) => {
        loading = undefined; // the next response tries again
        unloadable(error); // one line, not one per response while the chunk stays away
        return undefined;
      },
    );
    void loading.then((loaded) => loaded?.check(key, snapshot, quietLeft));
  };
}
