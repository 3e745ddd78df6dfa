/**
 * The partner's rate state as a plain snapshot: what the limiter, the pacer and
 * the server's clock know, for `client.rateState()`, for the `RateLimitError` of a call that ran
 * out of retries, and for `onRateStateChange`. A snapshot is built only when asked for.
 */
import type { PartnerLoad } from "../coordination/coordinator.ts";
import type { ServerClock } from "../internal/server-clock.ts";
import { setBoundedTimeout } from "../internal/timers.ts";
import type { RateState } from "../rate-state.ts";

export type { RateState };

export function rateStateOf(partnerId: string | undefined, load: PartnerLoad, clock: ServerClock): RateState {
  const rate = load.pace;
  const until = load.coolDownUntil;
  return {
    partnerId,
    inFlight: load.inFlight,
    queued: { interactive: load.queued.interactive, background: load.queued.background },
    concurrencyLimit: load.concurrencyLimit,
    pace: rate === undefined ? null : Math.round(rate * 100) / 100,
    coolDownUntil: until !== undefined && until > Date.now() ? until : null,
    clockSkewMs: clock.skewMs,
  };
}

/** At most one `onRateStateChange` call per this many ms (the latest state wins). */
const RATE_STATE_THROTTLE_MS = 250;

/**
 * Calls `onChange` when the cap, the pace or the cool-down of a partner changes: checked after
 * every response and when a quiet period or a cool-down ends; throttled; a callback that throws
 * is reported to `warn` and never reaches a call. Created only when the option is set.
 */
export class RateStateWatch {
  readonly #onChange: (state: RateState) => void;
  readonly #warn: (message: string, error: unknown) => void;
  readonly #last = new Map<string, string>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #lastCallAt = Number.NEGATIVE_INFINITY;
  /** The latest changed state per partner, not yet reported. */
  readonly #pending = new Map<string, RateState>();
  /** One timer per partner for the end of its quiet period (a later 429 is seen when it fires). */
  readonly #quietTimers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(onChange: (state: RateState) => void, warn: (message: string, error: unknown) => void) {
    this.#onChange = onChange;
    this.#warn = warn;
  }

  /**
   * After a response, or when a timed change is due: notify if what is watched changed.
   * @param quietLeft ms until the quiet period after the latest 429 ends (0 when not in one)
   */
  check(key: string, snapshot: () => RateState, quietLeft?: () => number): void {
    const state = snapshot();
    const signature = `${state.concurrencyLimit}|${state.pace}|${state.coolDownUntil}`;
    if (this.#last.get(key) !== signature) {
      this.#last.set(key, signature);
      this.#pending.set(key, state);
      this.#schedule();
    }
    // The return to normal is a change too, though no response announces it. A timer may fire a
    // little early for the monotonic clock: it checks again until the quiet period is over.
    const left = quietLeft?.() ?? 0;
    if (left > 0 && !this.#quietTimers.has(key)) {
      const timer = setBoundedTimeout(() => {
        this.#quietTimers.delete(key);
        this.check(key, snapshot, quietLeft);
      }, left + 1);
      (timer as { unref?: () => void }).unref?.();
      this.#quietTimers.set(key, timer);
    }
  }

  #schedule(): void {
    if (this.#timer !== undefined) return;
    const wait = Math.max(0, this.#lastCallAt + RATE_STATE_THROTTLE_MS - performance.now());
    this.#timer = setBoundedTimeout(() => this.#flush(), wait);
    (this.#timer as { unref?: () => void }).unref?.();
  }

  #flush(): void {
    this.#timer = undefined;
    this.#lastCallAt = performance.now();
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const state of pending) {
      try {
        this.#onChange(state);
      } catch (error) {
        this.#warn("onRateStateChange threw; ignored", error);
      }
    }
  }
}
