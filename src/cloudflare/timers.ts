/**
 * Timers in a Worker's isolate belong to the request that set them: one whose request ended never
 * fires, and touching it from another request throws ("Cannot perform I/O on behalf of a different
 * request"). So the coordinator re-arms its timers from each exchange, and clears them through this.
 */

/** Clears `timer`, whichever request set it. */
export function cancel(timer: ReturnType<typeof setTimeout> | undefined): void {
  if (timer === undefined) return;
  try {
    clearTimeout(timer);
  } catch {
    // Set by a request that ended: it will not fire.
  }
}
