/**
 * Where a turn waits when another turn of this isolate is already at the object: until a finished
 * call's slot is to be given back (then both go in one request, the turn carrying the release) or
 * the turn at the object is answered. While an isolate is busy, every slot given back rides on the
 * next call's turn, even when the turn at the object waits there for the pace or a slot: one
 * request per call, never one more to give a slot back.
 */
export class RideGate {
  readonly #waiting: Array<() => void> = [];

  /** Whether a turn waits here (a release can ride on it now). */
  get occupied(): boolean {
    return this.#waiting.length > 0;
  }

  /** Resolves at the next `open()`; rejects with the signal's reason when it aborts first. */
  wait(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const go = () => {
        signal?.removeEventListener("abort", abort);
        resolve();
      };
      const abort = () => {
        const at = this.#waiting.indexOf(go);
        if (at >= 0) this.#waiting.splice(at, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", abort, { once: true });
      this.#waiting.push(go);
    });
  }

  /** Waits here while `wait()` holds; `aborted` is told when the signal ends the wait. */
  async until(wait: () => boolean, signal: AbortSignal | undefined, aborted: () => void): Promise<void> {
    while (wait()) {
      try {
        await this.wait(signal);
      } catch (error) {
        aborted();
        throw error;
      }
    }
  }

  /** Lets the turns waiting here go (each checks again whether it may ask now). */
  open(): void {
    for (const go of this.#waiting.splice(0)) go();
  }
}
