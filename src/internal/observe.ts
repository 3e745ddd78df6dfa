/**
 * Runs an observer of the application's (a logger's method, `onRateStateChange`, a coordinator's
 * `onUnavailable`): whatever it does changes nothing of the client. It may throw, or be an async
 * function whose promise rejects; a rejection no one handles would end a Node process (its
 * default since Node 15), so the client handles it, and `failed` is told either way.
 */
export function observe(run: () => unknown, failed: (error: unknown) => void = () => {}): void {
  try {
    const result = run() as PromiseLike<unknown> | undefined;
    if (typeof result?.then === "function") result.then(undefined, failed);
  } catch (error) {
    failed(error);
  }
}
