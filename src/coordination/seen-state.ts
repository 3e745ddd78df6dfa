/**
 * What one process (a Node process on Redis, an isolate on a Durable Object) last saw of its
 * partner's shared state, and when: what `load()` answers between replies, what it tells a store
 * that lost the state (the quiet period left, the pace), and what its fair share starts from while
 * the store does not answer. One rule set for both coordinators; each reads its store's replies
 * into `sawState`.
 */
import { monotonicNow } from "../internal/clock.ts";
import type { PartnerKey, PartnerLoad } from "./coordinator.ts";
import { LONGEST_SHARED_COOL_DOWN_MS, trustedMsLeft } from "./stored-limits.ts";

/** The shared state as one reply of the store gives it. */
export interface SharedStateSeen {
  readonly limit: number;
  readonly pace: number | undefined;
  /** Ms of the partner's 429 cool-down left (0 or less: none). */
  readonly cool: number;
  readonly processes: number;
  /** Ms of the quiet period after the latest 429 left. */
  readonly quiet: number;
}

export class SeenState {
  readonly #key: PartnerKey;
  /** The partner's cap in force when last seen. */
  limit: number;
  pace: number | undefined;
  coolDownUntil: number | undefined;
  /** The quiet period left when last seen, and when that was (monotonic, 0: never). */
  quietLeftMs = 0;
  seenAt = 0;
  /** The partner's live processes, as last counted. */
  processes = 1;

  constructor(key: PartnerKey) {
    this.#key = key;
    this.limit = key.maxConcurrency;
  }

  /** Ms of the quiet period left now (0 or less: none). */
  get quietLeftNow(): number {
    return this.quietLeftMs - (monotonicNow() - this.seenAt);
  }

  /** Whether the store heard from this process within `ms` (finding no state then means it lost it). */
  seenWithin(ms: number): boolean {
    return this.seenAt > 0 && monotonicNow() - this.seenAt < ms;
  }

  protected sawState(state: SharedStateSeen): void {
    this.limit = state.limit;
    this.pace = state.pace;
    // Never longer than this client sets: a state written by something else, or before a clock step.
    const cool = trustedMsLeft(state.cool, LONGEST_SHARED_COOL_DOWN_MS);
    this.coolDownUntil = cool > 0 ? Date.now() + cool : this.coolDownUntil;
    this.processes = Math.max(1, state.processes);
    this.quietLeftMs = state.quiet;
    this.seenAt = monotonicNow();
  }

  /** A 429 this process met: known here at once; the shared state says the same once the store hears of it. */
  rateLimited(waitMs: number): void {
    this.coolDownUntil = Math.max(this.coolDownUntil ?? 0, Date.now() + waitMs);
    this.limit = Math.min(this.#key.maxConcurrency, this.#key.reducedConcurrency);
    this.quietLeftMs = this.#key.quietMs;
    this.seenAt = monotonicNow();
  }

  /** What the fair share met while the store was away (a 429, a pace), for a store that lost its state. */
  learnFrom(load: PartnerLoad | undefined): void {
    if (!load) return;
    if (load.quietLeftMs > this.quietLeftNow) {
      this.quietLeftMs = load.quietLeftMs;
      this.seenAt = monotonicNow();
    }
    if (load.pace !== undefined) this.pace = load.pace * Math.max(1, this.processes);
  }
}
