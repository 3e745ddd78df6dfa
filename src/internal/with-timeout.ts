import { setBoundedTimeout } from "./timers.ts";

/** Settles with `work()`, or rejects after `ms` (the work goes on; its result is then ignored). */
export function withTimeout<T>(work: () => T | Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setBoundedTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    Promise.resolve()
      .then(work)
      .then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
  });
}
