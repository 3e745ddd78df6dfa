import { onAbort } from "./on-abort.ts";

/**
 * Settles with `promise`, or rejects with the signal's reason as soon as it aborts (the work goes
 * on for others, or is abandoned: its own failure then no longer matters and is not reported).
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const stop = onAbort(signal, () => reject(signal.reason));
    promise.then(
      (value) => {
        stop();
        resolve(value);
      },
      (error: unknown) => {
        stop();
        reject(error);
      },
    );
  });
}
