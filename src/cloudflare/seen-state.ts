/**
 * What one isolate last heard of its partner's state from the object (coordination/seen-state.ts),
 * read from the object's replies, and the live isolates the object counted, kept for the whole
 * isolate.
 */
import type { PartnerKey } from "../coordination/coordinator.ts";
import { SeenState } from "../coordination/seen-state.ts";
import type { PartnerReply } from "./protocol.ts";

/**
 * The live isolates each partner object last counted, by object name, for the whole isolate: a
 * worker makes a coordinator per request, and a fair share taken before this request's first
 * answer must still divide by the isolates the object counted, not by one.
 */
const lastCounted = new Map<string, number>();

export class ObjectSeen extends SeenState {
  readonly #name: string;
  /** Turns the object said were waiting at its last answer. */
  waiting = 0;

  constructor(key: PartnerKey, name: string) {
    super(key);
    this.#name = name;
    this.processes = lastCounted.get(name) ?? 1;
  }

  saw(reply: PartnerReply): void {
    this.sawState({
      limit: reply.limit,
      pace: reply.pace ?? undefined,
      cool: reply.cool,
      processes: reply.procs,
      quiet: reply.quiet,
    });
    lastCounted.set(this.#name, this.processes);
    this.waiting = reply.waiting;
  }
}
