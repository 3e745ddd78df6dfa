/**
 * What one isolate last heard of its partner's state from the object, and when: what `load()`
 * answers between replies, what it tells an object that lost its memory (the quiet period left, the
 * pace), and what its fair share starts from while the object does not answer.
 */
import type { PartnerKey, PartnerLoad } from "../coordination/coordinator.ts";
import { LONGEST_SHARED_COOL_DOWN_MS, trustedMsLeft } from "../coordination/stored-limits.ts";
import { monotonicNow } from "../internal/clock.ts";
import type { PartnerReply } from "./protocol.ts";

/**
 * The live isolates each partner object last counted, by object name, for the whole isolate: a
 * worker makes a coordinator per request, and a fair share taken before this request's first
 * answer must still divide by the isolates the object counted, not by one.
 */
const lastCounted = new Map<string, number>();

export class ObjectSeen {
  readonly #key: PartnerKey;
  readonly #name: string;
  limit: number;
  pace: number | undefined;
  coolDownUntil: number | undefined;
  quietLeftMs = 0;
  /** When the object last answered (monotonic, 0: never). */
  seenAt = 0;
  processes = 1;
  /** Turns the object said were waiting at its last answer. */
  waiting = 0;

  constructor(key: PartnerKey, name: string) {
    this.#key = key;
    this.#name = name;
    this.limit = key.maxConcurrency;
    this.processes = lastCounted.get(name) ?? 1;
  }

  /** Ms of the quiet period left now (0 or less: none). */
  get quietLeftNow(): number {
    return this.quietLeftMs - (monotonicNow() - this.seenAt);
  }

  /** Whether the object answered within `ms` (finding no state then means it lost it). */
  seenWithin(ms: number): boolean {
    return this.seenAt > 0 && monotonicNow() - this.seenAt < ms;
  }

  saw(reply: PartnerReply): void {
    this.limit = reply.limit;
    this.pace = reply.pace ?? undefined;
    // Never longer than this client sets: a state of something else, or of a clock that stepped.
    const cool = trustedMsLeft(reply.cool, LONGEST_SHARED_COOL_DOWN_MS);
    this.coolDownUntil = cool > 0 ? Date.now() + cool : this.coolDownUntil;
    this.processes = Math.max(1, reply.procs);
    lastCounted.set(this.#name, this.processes);
    this.quietLeftMs = reply.quiet;
    this.waiting = reply.waiting;
    this.seenAt = monotonicNow();
  }

  /** A 429 this isolate met: known here at once; the object says the same once it hears of it. */
  rateLimited(waitMs: number): void {
    this.coolDownUntil = Math.max(this.coolDownUntil ?? 0, Date.now() + waitMs);
    this.limit = Math.min(this.#key.maxConcurrency, this.#key.reducedConcurrency);
    this.quietLeftMs = this.#key.quietMs;
    this.seenAt = monotonicNow();
  }

  /** What the fair share met while the object was away (a 429, a pace), for an object that lost its state. */
  learnFrom(load: PartnerLoad | undefined): void {
    if (!load) return;
    if (load.quietLeftMs > this.quietLeftNow) {
      this.quietLeftMs = load.quietLeftMs;
      this.seenAt = monotonicNow();
    }
    if (load.pace !== undefined) this.pace = load.pace * Math.max(1, this.processes);
  }
}
