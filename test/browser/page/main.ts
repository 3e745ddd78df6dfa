/**
 * The page of test/browser/session-provider.test.ts: the scenarios on the page's own thread
 * (`globalThis.scenarios`), and the same scenarios in a dedicated worker (`globalThis.inWorker`).
 */
import * as scenarios from "./scenarios.ts";

type Answer = { id: number; result?: unknown; error?: string };
const worker = new Worker("/worker.js", { type: "module" });
const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
let next = 0;

worker.addEventListener("message", (event: MessageEvent<Answer>) => {
  const { id, result, error } = event.data;
  const waiting = pending.get(id);
  pending.delete(id);
  if (error === undefined) waiting?.resolve(result);
  else waiting?.reject(new Error(`in the worker: ${error}`));
});
// An error the worker did not catch (a failed load included) fails whatever waits for it.
worker.addEventListener("error", (event: ErrorEvent) => {
  for (const waiting of pending.values()) waiting.reject(new Error(`the worker failed: ${event.message}`));
  pending.clear();
});

/** Runs `name` of the scenarios in the worker. */
function inWorker(name: keyof typeof scenarios, ...args: unknown[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    next += 1;
    pending.set(next, { resolve, reject });
    worker.postMessage({ id: next, name, args });
  });
}

Object.assign(globalThis, { scenarios, inWorker });
