import { monotonicNow } from "../internal/clock.ts";
import { type AbortFollower, follow, unfollow } from "../internal/on-abort.ts";
import { setBoundedTimeout } from "../internal/timers.ts";
import { type Waiter, WaitQueue } from "./wait-queue.ts";

/**
 * Adaptive concurrency (Section 8.4): at most `max` calls in flight; after a 429, at most
 * `reduced` until `quietMs` pass without another 429.
 *
 * Two lanes: a call with `priority: "low"` waits in the background lane. A free slot goes
 * to the interactive lane first; while both lanes wait, every BACKGROUND_EVERY-th grant goes to the
 * background lane, so a background job is slowed, never starved (it gets at least 1 slot in
 * BACKGROUND_EVERY that free up). Within a lane, first come, first served. A waiter whose signal
 * aborts leaves its queue at once, in constant time (wait-queue.ts).
 */
export interface LimiterOptions {
  readonly max: number;
  readonly reduced: number;
  readonly quietMs: number;
  readonly now?: () => number;
}

export type Lane = "interactive" | "background";

/** While both lanes wait, one grant in this many goes to the background lane. */
const BACKGROUND_EVERY = 4;

/**
 * What a waiter's promise settles with once its slot is granted: made from the release function,
 * the caller's context and when it began to wait. A shared function and a context, not a closure
 * per call (memory per queued call).
 */
export type OnGrant<T, C> = (release: () => void, context: C, since: number) => T | Promise<T>;

/**
 * A call waiting for a slot: a class, so that a queued call costs one small object and its
 * promise, with no closure of its own (memory per queued call).
 */
class SlotWaiter implements Waiter<() => void>, AbortFollower {
  gone?: boolean;
  readonly #resolve: (value: unknown) => void;
  readonly #reject: (reason: unknown) => void;
  readonly #onGrant: OnGrant<unknown, unknown> | undefined;
  readonly #context: unknown;
  /** When it began to wait (monotonic ms). */
  readonly #since: number;
  readonly #queue: WaitQueue<() => void, SlotWaiter>;
  readonly signal: AbortSignal | undefined;

  constructor(
    resolve: (value: unknown) => void,
    reject: (reason: unknown) => void,
    onGrant: OnGrant<unknown, unknown> | undefined,
    context: unknown,
    since: number,
    queue: WaitQueue<() => void, SlotWaiter>,
    signal: AbortSignal | undefined,
  ) {
    this.#resolve = resolve;
    this.#reject = reject;
    this.#onGrant = onGrant;
    this.#context = context;
    this.#since = since;
    this.#queue = queue;
    this.signal = signal;
  }

  /** A slot for the waiter: its promise settles with what `onGrant` makes of it (the release itself without one). */
  grant(release: () => void): void {
    if (!this.#onGrant) {
      this.#resolve(release);
      return;
    }
    try {
      this.#resolve(this.#onGrant(release, this.#context, this.#since));
    } catch (error) {
      this.#reject(error);
    }
  }

  /** The waiter's signal aborted: it leaves its queue (O(1)) and its call is rejected with the reason. */
  aborted(): void {
    if (this.#queue.remove(this)) this.#reject(this.signal?.reason);
  }
}

export class ConcurrencyLimiter {
  readonly #options: LimiterOptions;
  readonly #now: () => number;
  readonly #interactive = new WaitQueue<() => void, SlotWaiter>();
  readonly #background = new WaitQueue<() => void, SlotWaiter>();
  /** Interactive grants in a row while the background lane waited. */
  #streak = 0;
  #active = 0;
  #lastRateLimitAt = Number.NEGATIVE_INFINITY;
  #coolDownUntil: number | undefined;
  #quietTimer: ReturnType<typeof setTimeout> | undefined;

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
    return this.#interactive.size + this.#background.size;
  }

  queuedIn(lane: Lane): number {
    return (lane === "background" ? this.#background : this.#interactive).size;
  }

  /**
   * A 429 was seen: drop to the reduced cap for the quiet period.
   * @param waitMs the wait it asked for (its Retry-After, else Section 8.3's least), for the rate state
   */
  rateLimited(waitMs?: number): void {
    this.#lastRateLimitAt = this.#now();
    if (waitMs !== undefined) this.#coolDownUntil = Math.max(this.#coolDownUntil ?? 0, Date.now() + waitMs);
    this.#drainWhenQuiet();
  }

  /** Calls waiting when the quiet period ends get the slots it gives back then, not at the next release. */
  #drainWhenQuiet(): void {
    if (this.#quietTimer !== undefined || this.#options.quietMs <= 0) return;
    this.#quietTimer = setBoundedTimeout(() => {
      this.#quietTimer = undefined;
      if (this.quietLeftMs > 0) this.#drainWhenQuiet();
      else this.#drain();
    }, this.quietLeftMs + 1);
    (this.#quietTimer as { unref?: () => void }).unref?.();
  }

  /** Epoch ms (local clock) until which the latest 429 asked calls to wait; undefined when none came. */
  get coolDownUntil(): number | undefined {
    return this.#coolDownUntil;
  }

  /** Ms until the quiet period after the latest 429 ends (0 when not in one). */
  get quietLeftMs(): number {
    return Math.max(0, this.#lastRateLimitAt + this.#options.quietMs - this.#now());
  }

  /** A release function when a slot is free right now and nobody waits; else undefined. */
  tryAcquire(): (() => void) | undefined {
    if (this.queued > 0 || this.#active >= this.limit) return undefined;
    this.#active += 1;
    return this.#releaser();
  }

  /** Resolves with a release function once a slot is free. */
  acquire(signal?: AbortSignal, lane: Lane = "interactive"): Promise<() => void> {
    return this.acquireThen(signal, lane, undefined, undefined) as Promise<() => void>;
  }

  /**
   * Resolves with what `onGrant` returns for the release function, `context` and the time the
   * waiter began to wait, once a slot is free (what it throws rejects): one promise per waiting
   * call, no continuation of its own (memory and abort cost of queued calls). Without
   * `onGrant`, with the release function.
   */
  acquireThen<T, C>(
    signal: AbortSignal | undefined,
    lane: Lane,
    onGrant: OnGrant<T, C> | undefined,
    context: C,
  ): Promise<T> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const queue = lane === "background" ? this.#background : this.#interactive;
    let waiter: SlotWaiter | undefined;
    const granted = new Promise<T>((resolve, reject) => {
      waiter = new SlotWaiter(
        resolve as (value: unknown) => void,
        reject,
        onGrant as OnGrant<unknown, unknown> | undefined,
        context,
        monotonicNow(),
        queue,
        signal,
      );
    });
    queue.push(waiter as SlotWaiter);
    // One listener per signal however many calls share it (internal/on-abort.ts): adding and
    // removing a listener of an EventTarget walks its list, quadratic for calls sharing a signal.
    if (signal) follow(signal, waiter as SlotWaiter);
    this.#drain();
    return granted;
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
    while (this.queued > 0 && this.#active < this.limit) {
      const waiter = this.#next() as SlotWaiter;
      if (waiter.signal) unfollow(waiter.signal, waiter);
      this.#active += 1;
      waiter.grant(this.#releaser());
    }
  }

  #next(): SlotWaiter | undefined {
    if (this.#background.size === 0) return this.#interactive.shift();
    if (this.#interactive.size === 0 || this.#streak >= BACKGROUND_EVERY - 1) {
      this.#streak = 0;
      return this.#background.shift();
    }
    this.#streak += 1;
    return this.#interactive.shift();
  }
}
