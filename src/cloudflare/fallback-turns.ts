/**
 * An isolate's fair share while its coordinator object does not answer (coordination/fair-share.ts:
 * the partner's cap and pace divided by the live isolates it last counted), the probe that ends it,
 * and the calls it runs. Said once through the logger when it starts and once when the object
 * answers again. The fair share's calls still in flight when the object answers are reported to it
 * as held leases, so an object that lost its memory counts them (≤ 8 in flight for the partner).
 */
import type { PartnerLoad, Turn, TurnOutcome, TurnRequest } from "../coordination/coordinator.ts";
import { FallbackLine } from "../coordination/store-turns.ts";
import { monotonicNow } from "../internal/clock.ts";
import type { LocalPartner } from "../transport/partner-state.ts";
import type { ObjectSettings } from "./settings.ts";

/**
 * The objects this isolate found away, by name: a worker makes a coordinator per request, and the
 * isolate says once that an object is away and once that it answers again, not once per request.
 */
const away = new Set<string>();

/** What the fair share asks of the isolate's shared state. */
export interface SharedSide {
  /** Whether the object holds `id` as a lease (a fair-share call it was told of). */
  held(id: string): boolean;
  /** Ends such a call at the object too. */
  done(id: string, outcome: TurnOutcome): void;
  /** The object answers again: what the fair share learned. */
  restored(load: PartnerLoad | undefined): void;
}

export class FallbackTurns {
  /** The fair share, while the object does not answer. */
  active: LocalPartner | undefined;
  /** Ids of the fair share's calls in flight that the object was not told of yet. */
  readonly held = new Set<string>();
  readonly #s: ObjectSettings;
  readonly #sync: () => Promise<unknown>;
  readonly #shared: SharedSide;
  /** Turns waiting in the fair share, moved back to the object when it answers again. */
  readonly #line = new FallbackLine();
  #probeAt = 0;

  readonly #name: string;

  constructor(name: string, settings: ObjectSettings, sync: () => Promise<unknown>, shared: SharedSide) {
    this.#name = name;
    this.#s = settings;
    this.#sync = sync;
    this.#shared = shared;
  }

  /** Starts the fair share (said once) and the probe; the one already running if any. */
  start(error: Error, make: () => LocalPartner): LocalPartner {
    if (this.active) return this.active;
    this.active = make();
    if (away.has(this.#name)) {
      this.#probe(50);
      return this.active;
    }
    away.add(this.#name);
    this.#s.warn(
      "the coordinator object does not answer: this isolate goes on with its fair share of the partner's limits",
      {
        reason: error.message,
        concurrencyLimit: this.active.load().concurrencyLimit,
      },
    );
    this.#probe(50);
    return this.active;
  }

  /** A turn of the fair share; one still waiting when the object answers again goes back to it. */
  async turn(
    fallback: LocalPartner,
    request: TurnRequest,
    again: (r: TurnRequest) => Turn | Promise<Turn>,
  ): Promise<Turn> {
    // A probe's timer can be lost with the request that set it (Workers): a turn starts another.
    if (monotonicNow() - this.#probeAt > this.#s.probeMs * 2 + this.#s.answerMs) this.#probe(0);
    return this.#line.turn(fallback, request, again, (turn) => this.#followed(turn));
  }

  /** A fair share's call, followed by an id: the object is told of it when it answers again. */
  #followed(turn: Turn): Turn {
    const id = this.#s.nextLeaseId();
    this.held.add(id);
    return {
      slotWaitMs: turn.slotWaitMs,
      paceWaitMs: turn.paceWaitMs,
      done: (outcome) => {
        turn.done(outcome);
        if (this.held.delete(id)) return;
        if (this.#shared.held(id)) this.#shared.done(id, outcome);
      },
    };
  }

  /** After an exchange the object answered: the ids it was told of are its leases now; the fair share ends. */
  reported(sent: readonly string[], adopt: (id: string) => void): void {
    for (const id of sent) if (this.held.delete(id)) adopt(id);
    const fallback = this.active;
    if (!fallback) {
      if (away.delete(this.#name)) this.#restoredSaid();
      return;
    }
    this.active = undefined; // calls under way on the fair share finish there
    this.#shared.restored(fallback.load());
    this.#line.restored();
    if (away.delete(this.#name)) this.#restoredSaid();
    this.#s.onRestored?.();
  }

  #restoredSaid(): void {
    this.#s.info("the coordinator object answers again: this isolate uses the partner's shared limits again");
  }

  #probe(delay: number): void {
    this.#probeAt = monotonicNow();
    const timer = setTimeout(() => {
      if (!this.active) return;
      this.#probeAt = monotonicNow();
      this.#sync().catch(() => this.#probe(Math.min(this.#s.probeMs, Math.max(50, delay * 2))));
    }, delay);
    (timer as { unref?: () => void }).unref?.();
  }
}
