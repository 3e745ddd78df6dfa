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
 *
 * The rules themselves are coordination/pacing-rules.ts, which the Redis coordinator's scripts run
 * too; this class adds what is the process's own: the queue of waiting calls and its timer.
 */

import * as rules from "../coordination/pacing-rules.ts";
import { monotonicNow } from "../internal/clock.ts";
import { CLIENT_DEFAULTS } from "../limits.ts";
import { type Waiter as QueuedWaiter, WaitQueue } from "./wait-queue.ts";

export type { PacerSettings } from "../coordination/pacing-rules.ts";

export interface PacerOptions {
  readonly settings?: Partial<rules.PacerSettings>;
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

const defaultTimer = (fn: () => void, ms: number): (() => void) => {
  const timer = setTimeout(fn, ms);
  return () => clearTimeout(timer);
};

export class RatePacer {
  readonly #s: rules.PacerSettings;
  readonly #now: () => number;
  readonly #setTimer: (fn: () => void, ms: number) => () => void;
  readonly #queue = new WaitQueue<PaceTicket, Waiter>();
  #cancelTimer: (() => void) | undefined;
  readonly #st: rules.PaceState;

  constructor(options: PacerOptions = {}) {
    this.#s = { ...CLIENT_DEFAULTS.pacing, ...options.settings };
    this.#now = options.now ?? monotonicNow;
    this.#setTimer = options.setTimer ?? defaultTimer;
    this.#st = rules.newPaceState(this.#s);
  }

  /** Calls per second in force now; undefined while pacing is off. */
  get rate(): number | undefined {
    return this.#rateAt(this.#now());
  }

  /** The partner's rate as last measured from 429s, once there is a measurement. */
  get measuredRate(): number | undefined {
    return this.#st.en === 1 && this.#st.ms === 1 ? this.#st.mr : undefined;
  }

  /**
   * About how long a call taking a ticket now would wait for its turn, in ms (0 while pacing is
   * off or a token is ready): the tokens owed to the calls already waiting, and its own, at the
   * current rate. An estimate: the rate may change while it waits.
   */
  waitEstimateMs(): number {
    const now = this.#now();
    const rate = this.#rateAt(now);
    if (rate === undefined) return 0;
    rules.refill(this.#st, this.#s, now);
    const owed = this.#queue.size + 1 - this.#st.tk;
    return owed <= 0 ? 0 : (owed * 1000) / rate;
  }

  /** The pace at `now`: none while pacing is off, or idle with nobody waiting (take() turns it off). */
  #rateAt(now: number): number | undefined {
    const st = this.#st;
    if (st.en === 0 || (this.#queue.size === 0 && rules.idle(st, this.#s, now))) return undefined;
    return rules.rateAt(st, this.#s, now);
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
    const st = this.#st;
    if (st.en === 0) return st.ep;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const now = this.#now();
    // With calls already waiting, this one waits behind them (the rules' take() is for an empty line).
    if (this.#queue.size === 0) {
      if (rules.take(st, this.#s, now)) return st.ep;
    } else {
      st.wa = now;
    }
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
    rules.admitted(this.#st, this.#s, this.#now());
  }

  /** A 429 for a call sent with `ticket`: the partner's bucket is empty now. */
  throttled(ticket: PaceTicket): void {
    rules.throttled(this.#st, this.#s, this.#now(), ticket);
    if (this.#st.en === 1) this.#restartTimer();
  }

  /**
   * Starts pacing at `rate` calls per second as if measured: a process's share of a partner's pace
   * it knew from elsewhere (a coordinator that lost its shared state).
   */
  startAt(rate: number): void {
    rules.cut(this.#st, this.#s, this.#now(), rate, rate, true);
  }

  #schedule(): void {
    if (this.#cancelTimer || this.#queue.size === 0) return;
    const now = this.#now();
    rules.refill(this.#st, this.#s, now);
    const wait = rules.tokenWaitMs(this.#st, this.#s, now);
    this.#cancelTimer = this.#setTimer(() => {
      this.#cancelTimer = undefined;
      this.#drain();
    }, Math.ceil(wait));
  }

  #drain(): void {
    const st = this.#st;
    rules.refill(st, this.#s, this.#now());
    while (this.#queue.size > 0 && st.tk >= 1) {
      st.tk -= 1;
      const waiter = this.#queue.shift() as Waiter;
      waiter.signal?.removeEventListener("abort", waiter.onAbort);
      waiter.grant(st.ep);
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
