/**
 * What one process last saw of its partner's shared state in Redis, and when: what `load()`
 * answers between replies, what the process tells a Redis that lost the state (the quiet period
 * left, the pace), and what its fair share starts from while Redis does not answer.
 */
import type { PartnerKey, PartnerLoad } from "../coordination/coordinator.ts";
import { LONGEST_SHARED_COOL_DOWN_MS, trustedMsLeft } from "../coordination/stored-limits.ts";
import { monotonicNow } from "../internal/clock.ts";

export class SeenState {
  readonly #key: PartnerKey;
  /** The partner's cap in force when last seen. */
  limit: number;
  pace: number | undefined;
  coolDownUntil: number | undefined;
  /** The quiet period left when last seen, and when that was (monotonic). */
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

  /** Whether Redis counted this process live lately (so that finding none live means it lost the state). */
  seenWithin(ms: number): boolean {
    return this.seenAt > 0 && monotonicNow() - this.seenAt < ms;
  }

  /** [limit, pace, cool-down left, processes, quiet left, epoch] from an ACQUIRE reply. */
  saw(state: string[]): void {
    this.limit = Number(state[0]);
    this.pace = state[1] ? Number(state[1]) : undefined;
    // Never longer than this client sets: a state written by something else, or before a clock step.
    const cool = trustedMsLeft(Number(state[2]), LONGEST_SHARED_COOL_DOWN_MS);
    this.coolDownUntil = cool > 0 ? Date.now() + cool : this.coolDownUntil;
    this.processes = Math.max(1, Number(state[3]));
    this.quietLeftMs = Number(state[4]);
    this.seenAt = monotonicNow();
  }

  /** A 429 this process met: known here at once; the shared state says the same once the reply comes. */
  rateLimited(waitMs: number): void {
    this.coolDownUntil = Math.max(this.coolDownUntil ?? 0, Date.now() + waitMs);
    this.limit = Math.min(this.#key.maxConcurrency, this.#key.reducedConcurrency);
    this.quietLeftMs = this.#key.quietMs;
    this.seenAt = monotonicNow();
  }

  /** A RELEASE reply: ['ok', pace, cool-down left]. */
  released(reply: unknown): void {
    const [, pace, cool] = Array.isArray(reply) ? (reply as string[]) : [];
    if (pace === "" || Number(pace) > 0) this.pace = pace === "" ? undefined : Number(pace);
    const left = trustedMsLeft(Number(cool), LONGEST_SHARED_COOL_DOWN_MS);
    if (left > 0) this.coolDownUntil = Date.now() + left;
  }

  /** What the fair share met while Redis was away (a 429, a pace), for a Redis that lost its state. */
  learnFrom(load: PartnerLoad | undefined): void {
    if (!load) return;
    if (load.quietLeftMs > this.quietLeftNow) {
      this.quietLeftMs = load.quietLeftMs;
      this.seenAt = monotonicNow();
    }
    if (load.pace !== undefined) this.pace = load.pace * Math.max(1, this.processes);
  }
}
