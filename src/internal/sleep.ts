import { onAbort } from "./on-abort.ts";
import { setBoundedTimeout } from "./timers.ts";

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    let stop: (() => void) | undefined;
    const timer = setBoundedTimeout(() => {
      stop?.();
      resolve();
    }, ms);
    if (signal)
      stop = onAbort(signal, () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
  });
}
