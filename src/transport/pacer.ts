/**
 * Client-side rate pacing per partner (Section 8.1, 8.3): a token bucket, off until 429s show the
 * partner's limit is being hit, whose fill rate is learned from what the partner admits.
 *
 * - A 429 means the partner's bucket is empty at that moment. Between two such moments the calls
 *   admitted (any status but 429) can only have used tokens refilled in between, so
 *   `admitted / span` is a lower bound of the partner's rate, and a tight one while the client
 *   sends faster than the limit. That measurement, not the sending rate, is what the pacer cuts to.
 * - Pacing starts once `engageShare` of the latest `shareOf` calls drew 429s while some calls were
 *   admitted during the last `windowMs` (a lone 429 or stray ones do not pace; a partner refusing
 *   everything leaves the calls to the retry waits), at the rate admitted during that window,
 *   doubling every `doublingMs` (slow start) until a 429 at least `windowMs` after an earlier one
 *   measures the rate. A slow start that meets no 429 for `horizonMs` turns pacing back off.
 * - After a measurement: pace at `beta` × the measured rate, then recover CUBIC-style, back to the
 *   measured rate after `recoveryMs`, then doubling every `doublingMs` above it, so that once the
 *   partner stops refusing calls the pace is back to full speed within seconds, not minutes.
 * - Pacing turns off once no call has had to wait for its turn, and no 429 has come, for `idleOffMs`:
 *   a pace that delays nobody is not needed, and a stale one must never make the client slower than
 *   the specification's own waits. While calls keep waiting, the rules above apply.
 * - A 429 for a call sent before the latest cut says nothing new. One too soon after the previous
 *   429 to measure halves the pace only if most of the latest calls are refused.
 *
 * Anchor: the AWS SDKs' adaptive retry mode (`DefaultRateLimiter`: bucket enabled on the first
 * throttle, cut to 0.7 × the measured *sending* rate, CUBIC recovery with a ~2.5 s window at
 * 20 calls/s). Differences: the rate is measured from admitted calls between 429s, the recovery is
 * slow because each 429 costs the caller 5–10 s, waiters are served in order from one timer, and a
 * queued call leaves the queue as soon as its AbortSignal aborts.
 */
import { monotonicNow } from "../internal/clock.ts";
import { CLIENT_DEFAULTS } from "../limits.ts";
import { type Waiter as QueuedWaiter, WaitQueue } from "./wait-queue.ts";

/** The constants of CLIENT_DEFAULTS.pacing; tests may pass others. */
export type PacerSettings = { readonly [K in keyof typeof CLIENT_DEFAULTS.pacing]: number };

export interface PacerOptions {
  readonly settings?: Partial<PacerSettings>;
  /** Clock in ms. @default a monotonic clock (performance.now): durations never follow wall-clock steps */
  readonly now?: () => number;
  /** Runs `fn` after `ms`; returns a cancel function. @default setTimeout */
  readonly setTimer?: (fn: () => void, ms: number) => () => void;
}

/** The pace a call was sent under: a 429 for a call sent before the latest cut is stale. */
export type PaceTicket = number;

interface Waiter extends QueuedWaiter<PaceTicket> {
  readonly signal: AbortSignal | undefined;
  readonly onAbort: () => void;
}

interface Anchor {
  readonly at: number;
  readonly admitted: number;
}

const MAX_ANCHORS = 32;
const ANCHOR_SPACING_MS = 100;
const SLOT_MS = 100;

const defaultTimer = (fn: () => void, ms: number): (() => void) => {
  const timer = setTimeout(fn, ms);
  return () => clearTimeout(timer);
};

export class RatePacer {
  readonly #s: PacerSettings;
  readonly #now: () => number;
  readonly #setTimer: (fn: () => void, ms: number) => () => void;
  readonly #queue = new WaitQueue<PaceTicket, Waiter>();
  #cancelTimer: (() => void) | undefined;

  #enabled = false;
  #epoch = 0;
  /** The latest cut: when, the rate it started from, and the measured rate it recovers to. */
  #cutAt = 0;
  #startRate = 0;
  #maxRate = 0;
  #measured = false;

  #tokens = 0;
  #refilledAt = 0;
  /** When a call last had to wait for its turn, and when the last 429 came. */
  #waitedAt = Number.NEGATIVE_INFINITY;
  #throttledAt = Number.NEGATIVE_INFINITY;

  /** Calls admitted so far, and 429s as measurement anchors. */
  #admitted = 0;
  readonly #anchors: Anchor[] = [];
  /** Outcomes of the latest `shareOf` calls, newest in bit 0 (1 = 429). */
  #outcomes = 0;
  /** Calls admitted per 100 ms slot over the last `windowMs`. */
  readonly #slots: number[];
  #slot = 0;

  constructor(options: PacerOptions = {}) {
    this.#s = { ...CLIENT_DEFAULTS.pacing, ...options.settings };
    this.#now = options.now ?? monotonicNow;
    this.#setTimer = options.setTimer ?? defaultTimer;
    this.#slots = new Array<number>(Math.max(1, Math.ceil(this.#s.windowMs / SLOT_MS))).fill(0);
  }

  /** Calls per second in force now; undefined while pacing is off. */
  get rate(): number | undefined {
    const now = this.#now();
    if (!this.#enabled || (this.#queue.size === 0 && this.#idle(now))) return undefined;
    return this.#rateAt(now);
  }

  /** The partner's rate as last measured from 429s, once there is a measurement. */
  get measuredRate(): number | undefined {
    return this.#enabled && this.#measured ? this.#maxRate : undefined;
  }

  /**
   * About how long a call taking a ticket now would wait for its turn, in ms (0 while pacing is
   * off or a token is ready): the tokens owed to the calls already waiting, and its own, at the
   * current rate. An estimate: the rate may change while it waits.
   */
  waitEstimateMs(): number {
    if (!this.#enabled) return 0;
    const now = this.#now();
    if (this.#queue.size === 0 && this.#idle(now)) return 0;
    this.#refill(now);
    const owed = this.#queue.size + 1 - this.#tokens;
    return owed <= 0 ? 0 : (owed * 1000) / this.#rateAt(now);
  }

  /** Calls waiting for their turn. */
  get queued(): number {
    return this.#queue.size;
  }

  /**
   * A ticket to send one call: at once (a number) while pacing is off or a token is ready, else a
   * promise that resolves in turn, or rejects with the signal's reason as soon as it aborts.
   */
  take(signal?: AbortSignal): PaceTicket | Promise<PaceTicket> {
    if (!this.#enabled) return this.#epoch;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const now = this.#now();
    if (this.#queue.size === 0 && this.#idle(now)) {
      // Nobody waited for the pace and no 429 came for a while (or a slow start ran a long time
      // without a 429): the pace is not needed, and pacing goes back off.
      this.#enabled = false;
      return this.#epoch;
    }
    if (this.#queue.size === 0) {
      this.#refill(now);
      if (this.#tokens >= 1) {
        this.#tokens -= 1;
        return this.#epoch;
      }
    }
    this.#waitedAt = now;
    return new Promise<PaceTicket>((resolve, reject) => {
      const waiter: Waiter = {
        grant: resolve,
        signal,
        onAbort: () => {
          if (!this.#queue.remove(waiter)) return;
          if (this.#queue.size === 0) this.#stopTimer();
          reject(signal?.reason);
        },
      };
      signal?.addEventListener("abort", waiter.onAbort, { once: true });
      this.#queue.push(waiter);
      this.#schedule();
    });
  }

  /** The partner admitted a call (any status but 429): it used one of the partner's tokens. */
  admitted(): void {
    this.#admitted += 1;
    this.#record(0);
    const slots = this.#advanceSlots(this.#now());
    const i = this.#slot % slots.length;
    slots[i] = (slots[i] ?? 0) + 1;
  }

  /** A 429 for a call sent with `ticket`: the partner's bucket is empty now. */
  throttled(ticket: PaceTicket): void {
    const now = this.#now();
    this.#throttledAt = now;
    this.#record(1);
    if (!this.#enabled) {
      const recent = this.#recentRate(now);
      if (this.#refusedShare() >= this.#s.engageShare && recent > 0) {
        this.#cut(now, this.#s.minRatePerSecond, recent, false);
      }
    } else if (ticket >= this.#epoch) {
      this.#refill(now);
      const current = this.#rateAt(now);
      const measured = this.#measure(now);
      if (measured !== undefined) {
        // Leaving slow start, the pace of one doubling ago drew no 429 (the measurement can be
        // low there: the partner's tokens overflowed while the client was still below the limit).
        const floor = this.#measured ? 0 : current / 2;
        const max = Math.max(this.#s.minRatePerSecond, floor, Math.min(measured, current));
        this.#cut(now, max, this.#s.beta * max, true);
      } else if (this.#refusedShare() >= this.#s.engageShare) {
        // Too soon after the previous 429 to measure, and most calls are refused: halve the pace
        // (TCP's multiplicative decrease) and slow-start again until a 429 measures.
        this.#cut(now, this.#s.minRatePerSecond, current / 2, false);
      }
    }
    if (this.#enabled) {
      this.#refill(now);
      this.#tokens = 0; // the partner has none left either
      this.#restartTimer();
    }
    // A burst of 429s is one anchor: its first, the longest span (keeps 32 anchors meaningful).
    const last = this.#anchors[this.#anchors.length - 1];
    if (!last || now - last.at >= ANCHOR_SPACING_MS) this.#anchors.push({ at: now, admitted: this.#admitted });
    if (this.#anchors.length > MAX_ANCHORS) this.#anchors.shift();
  }

  /**
   * Starts pacing at `rate` calls per second as if measured: a process's share of a partner's pace
   * it knew from elsewhere (a coordinator that lost its shared state).
   */
  startAt(rate: number): void {
    this.#cut(this.#now(), rate, rate, true);
  }

  #cut(now: number, maxRate: number, startRate: number, measured: boolean): void {
    this.#maxRate = measured ? maxRate : Number.POSITIVE_INFINITY;
    this.#startRate = Math.max(this.#s.minRatePerSecond, startRate);
    this.#measured = measured;
    this.#enabled = true;
    this.#epoch += 1;
    this.#cutAt = now;
    this.#refilledAt = now;
  }

  /** The tightest lower bound of the partner's rate: admitted calls per second since an earlier 429. */
  #measure(now: number): number | undefined {
    let best: number | undefined;
    for (const anchor of this.#anchors) {
      const span = now - anchor.at;
      if (span < this.#s.windowMs || span > this.#s.horizonMs) continue;
      // The partner held less than one token at the earlier 429: discount it.
      const rate = (Math.max(0, this.#admitted - anchor.admitted - 1) * 1000) / span;
      if (best === undefined || rate > best) best = rate;
    }
    return best;
  }

  /** No call waited and no 429 came for `idleOffMs`, or a slow start met no 429 within the horizon. */
  #idle(now: number): boolean {
    const quiet = now - Math.max(this.#waitedAt, this.#throttledAt, this.#cutAt);
    return quiet >= this.#s.idleOffMs || (!this.#measured && now - this.#cutAt > this.#s.horizonMs);
  }

  #record(refused: 0 | 1): void {
    const n = this.#s.shareOf;
    this.#outcomes = ((this.#outcomes << 1) | refused) & ((1 << n) - 1);
  }

  /** Share of 429s among the latest `shareOf` calls (a shorter history counts as admitted). */
  #refusedShare(): number {
    let refused = 0;
    for (let bits = this.#outcomes; bits !== 0; bits &= bits - 1) refused += 1;
    return refused / this.#s.shareOf;
  }

  /** Admitted calls per second over the last `windowMs` (a shorter history counts as the full window). */
  #recentRate(now: number): number {
    const total = this.#advanceSlots(now).reduce((sum, n) => sum + n, 0);
    return (total * 1000) / (this.#slots.length * SLOT_MS);
  }

  #advanceSlots(now: number): number[] {
    const slot = Math.floor(now / SLOT_MS);
    const slots = this.#slots;
    if (slot !== this.#slot) {
      const gap = Math.min(slots.length, slot - this.#slot);
      for (let i = 1; i <= gap; i++) slots[(this.#slot + i) % slots.length] = 0;
      this.#slot = slot;
    }
    return slots;
  }

  /** Slow start before a measurement; CUBIC around the measured rate after one. */
  #rateAt(now: number): number {
    const elapsed = Math.max(0, now - this.#cutAt);
    let rate: number;
    if (!this.#measured) {
      rate = this.#startRate * 2 ** (elapsed / this.#s.doublingMs);
    } else if (elapsed < this.#s.recoveryMs) {
      const k = this.#s.recoveryMs / 1000;
      const c = (this.#maxRate - this.#startRate) / k ** 3;
      rate = this.#maxRate + c * (elapsed / 1000 - k) ** 3;
    } else {
      // Back at the measured rate: probe above it as fast as slow start does.
      rate = this.#maxRate * 2 ** ((elapsed - this.#s.recoveryMs) / this.#s.doublingMs);
    }
    return Math.max(this.#s.minRatePerSecond, rate);
  }

  #refill(now: number): void {
    const rate = this.#rateAt(now);
    const capacity = Math.max(1, (rate * this.#s.burstMs) / 1000);
    this.#tokens = Math.min(capacity, this.#tokens + (rate * Math.max(0, now - this.#refilledAt)) / 1000);
    this.#refilledAt = now;
  }

  #schedule(): void {
    if (this.#cancelTimer || this.#queue.size === 0) return;
    const now = this.#now();
    this.#refill(now);
    const wait = this.#tokens >= 1 ? 0 : ((1 - this.#tokens) * 1000) / this.#rateAt(now);
    this.#cancelTimer = this.#setTimer(() => {
      this.#cancelTimer = undefined;
      this.#drain();
    }, Math.ceil(wait));
  }

  #drain(): void {
    this.#refill(this.#now());
    while (this.#queue.size > 0 && this.#tokens >= 1) {
      this.#tokens -= 1;
      const waiter = this.#queue.shift() as Waiter;
      waiter.signal?.removeEventListener("abort", waiter.onAbort);
      waiter.grant(this.#epoch);
    }
    this.#schedule();
  }

  #stopTimer(): void {
    this.#cancelTimer?.();
    this.#cancelTimer = undefined;
  }

  #restartTimer(): void {
    this.#stopTimer();
    this.#schedule();
  }
}
