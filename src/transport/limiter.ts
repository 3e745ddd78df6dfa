import { monotonicNow } from "../internal/clock.ts";

/**
 * Adaptive concurrency (Section 8.4): at most `max` calls in flight; after a 429, at most
 * `reduced` until `quietMs` pass without another 429. Waiters are served first come, first served,
 * and a waiter whose signal aborts leaves the queue at once.
 */
export interface LimiterOptions {
  readonly max: number;
  readonly reduced: number;
  readonly quietMs: number;
  readonly now?: () => number;
}

interface Waiter {
  grant: () => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

export class ConcurrencyLimiter {
  readonly #options: LimiterOptions;
  readonly #now: () => number;
  readonly #queue: Waiter[] = [];
  #active = 0;
  #lastRateLimitAt = Number.NEGATIVE_INFINITY;

  constructor(options: LimiterOptions) {
    this.#options = options;
    this.#now = options.now ?? monotonicNow; // a duration: a step of the wall clock must not move it
  }

  /** The cap in force now. */
  get limit(): number {
    const { max, reduced, quietMs } = this.#options;
    return this.#now() - this.#lastRateLimitAt < quietMs ? Math.min(max, reduced) : max;
  }

  get active(): number {
    return this.#active;
  }

  get queued(): number {
    return this.#queue.length;
  }

  /** A 429 was seen: drop to the reduced cap for the quiet period. */
  rateLimited(): void {
    this.#lastRateLimitAt = this.#now();
  }

  /** A release function when a slot is free right now and nobody waits; else undefined. */
  tryAcquire(): (() => void) | undefined {
    if (this.#queue.length > 0 || this.#active >= this.limit) return undefined;
    this.#active += 1;
    return this.#releaser();
  }

  /** Resolves with a release function once a slot is free. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => resolve(this.#releaser()),
        signal,
        onAbort: () => {
          const i = this.#queue.indexOf(waiter);
          if (i >= 0) this.#queue.splice(i, 1);
          reject(signal?.reason);
        },
      };
      signal?.addEventListener("abort", waiter.onAbort, { once: true });
      this.#queue.push(waiter);
      this.#drain();
    });
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#active -= 1;
      this.#drain();
    };
  }

  #drain(): void {
    while (this.#queue.length > 0 && this.#active < this.limit) {
      const waiter = this.#queue.shift() as Waiter;
      waiter.signal?.removeEventListener("abort", waiter.onAbort);
      this.#active += 1;
      waiter.grant();
    }
  }
}
