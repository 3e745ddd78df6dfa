/**
 * The `onRateStateChange` watch: which partner's state changed since it was last reported, and when
 * it may change again with no response to announce it. Loaded only by a client given the option
 * (lazy-rate-watch.ts).
 */
import { observe } from "../internal/observe.ts";
import type { RateState } from "../rate-state.ts";

/**
 * Runs `fn` after `ms`, a wait the runtime honours (internal/timers.ts); unref'd where it can be.
 * Given by lazy-rate-watch.ts: importing the timers module here too would move it out of the chunk
 * every app loads up front into one of its own.
 */
export type SetTimer = (fn: () => void, ms: number) => ReturnType<typeof setTimeout>;

/** At most one `onRateStateChange` call per this many ms (the latest state wins). */
const RATE_STATE_THROTTLE_MS = 250;

/**
 * How often a pace is looked at again while no response comes: it moves as it recovers and ends
 * once idle (pacing-rules.ts), at times the watch cannot know.
 */
const PACE_RECHECK_MS = 1000;

/**
 * Ms until the state may change with no response to announce it (undefined when at rest): the end
 * of the quiet period or of the cool-down, or the next look at a pace. A timer may fire a little
 * early for the clock each is read on: the check then times another.
 */
function changeDueIn(state: RateState, quietLeft: number): number | undefined {
  let wait = quietLeft > 0 ? quietLeft + 1 : Number.POSITIVE_INFINITY;
  if (state.coolDownUntil !== null) wait = Math.min(wait, state.coolDownUntil - Date.now() + 1);
  if (state.pace !== null) wait = Math.min(wait, PACE_RECHECK_MS);
  return wait === Number.POSITIVE_INFINITY ? undefined : Math.max(wait, 1);
}

/**
 * Calls `onChange` when the cap, the pace or the cool-down of a partner changes: checked after
 * every response, and while the state is not at rest, when it may change on its own (changeDueIn);
 * throttled; a callback that throws is reported to `warn` and never reaches a call. Created only
 * when the option is set.
 */
export class RateStateWatch {
  readonly #onChange: (state: RateState) => void;
  readonly #warn: (message: string, error: unknown) => void;
  readonly #setTimer: SetTimer;
  readonly #last = new Map<string, string>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #lastCallAt = Number.NEGATIVE_INFINITY;
  /** The latest changed state per partner, not yet reported. */
  readonly #pending = new Map<string, RateState>();
  /** One timer per partner for its next change with time (a later 429 is seen when it fires). */
  readonly #dueTimers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(
    onChange: (state: RateState) => void,
    warn: (message: string, error: unknown) => void,
    setTimer: SetTimer,
  ) {
    this.#onChange = onChange;
    this.#warn = warn;
    this.#setTimer = setTimer;
  }

  /**
   * After a response, or when a timed change is due: notify if what is watched changed.
   * @param quietLeft ms until the quiet period after the latest 429 ends (0 when not in one)
   */
  check(key: string, snapshot: () => RateState, quietLeft?: () => number): void {
    try {
      this.#check(key, snapshot, quietLeft);
    } catch (error) {
      // A coordinator's load() that throws: never into a call, never out of a timer (it would take
      // the process down). The next response looks again.
      this.#warn("the rate state could not be read; watched again at the next response", error);
    }
  }

  #check(key: string, snapshot: () => RateState, quietLeft: (() => number) | undefined): void {
    // The quiet period is read before the snapshot: one that ends between the two reads is then
    // seen as not over yet (another check is timed), never as over while the snapshot shows its cap.
    const left = quietLeft?.() ?? 0;
    const state = snapshot();
    const signature = `${state.concurrencyLimit}|${state.pace}|${state.coolDownUntil}`;
    if (this.#last.get(key) !== signature) {
      this.#last.set(key, signature);
      this.#pending.set(key, state);
      this.#schedule();
    }
    // The return to normal is a change too, though no response announces it.
    const due = this.#dueTimers.has(key) ? undefined : changeDueIn(state, left);
    if (due !== undefined) {
      const timer = this.#setTimer(() => {
        this.#dueTimers.delete(key);
        this.check(key, snapshot, quietLeft);
      }, due);
      this.#dueTimers.set(key, timer);
    }
  }

  #schedule(): void {
    if (this.#timer !== undefined) return;
    const wait = Math.max(0, this.#lastCallAt + RATE_STATE_THROTTLE_MS - performance.now());
    this.#timer = this.#setTimer(() => this.#flush(), wait);
  }

  #flush(): void {
    this.#timer = undefined;
    this.#lastCallAt = performance.now();
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const state of pending)
      observe(
        () => this.#onChange(state),
        (error) => this.#warn("onRateStateChange threw; ignored", error),
      );
  }
}
