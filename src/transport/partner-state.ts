/**
 * The default coordinator's partner state: slots and pace shared in the process.
 * The API's limits are per partner, not per client (Sections 5, 8): two clients of one partner at
 * one environment share one limiter and one pacer, so together they hold at most 8 calls in flight
 * (4 after a 429), and a 429 one of them meets slows both.
 *
 * Clients share when they agree on the settings that shape that state (`maxConcurrency`,
 * `rateLimitQuietPeriodMs`, `ratePacing`): differently configured clients keep apart, each with
 * the limits it was given. State lives as long as the process (one small object per partner and
 * setting). The order of one turn: a slot first (not held during retry waits), then the pace
 * inside that slot, so the call leaves exactly when paced.
 */
import type {
  Coordinator,
  PartnerCoordination,
  PartnerKey,
  PartnerLoad,
  Turn,
  TurnOutcome,
  TurnRequest,
} from "../coordination/coordinator.ts";
import { TooLate } from "../coordination/coordinator.ts";
import { monotonicNow } from "../internal/clock.ts";
import { ConcurrencyLimiter } from "./limiter.ts";
import { type PaceTicket, RatePacer } from "./pacer.ts";

/** One partner's slots and pace in this process. */
export class LocalPartner implements PartnerCoordination {
  readonly limiter: ConcurrencyLimiter;
  readonly pacer: RatePacer | undefined;

  constructor(limiter: ConcurrencyLimiter, pacer: RatePacer | undefined) {
    this.limiter = limiter;
    this.pacer = pacer;
  }

  turn(request: TurnRequest): Turn | Promise<Turn> {
    // The common case, a free slot, nobody waiting and no pace: no promise, no listener.
    const release = !request.signal?.aborted && this.limiter.tryAcquire();
    if (release) {
      const ticket = this.#checkedTake(request, release);
      return typeof ticket === "number"
        ? this.#turn(release, ticket, undefined, undefined)
        : this.#paced(release, ticket, undefined);
    }
    return this.#slot(request);
  }

  #slot(request: TurnRequest): Promise<Turn> {
    // Made when the slot is granted, in the limiter's one promise: a waiting call holds no
    // suspended frame, promise or closure of its own (memory and abort cost of queued calls).
    return this.limiter.acquireThen(request.signal, request.lane, this.#granted, request);
  }

  /** A slot came free for a waiting turn: its pace next. */
  readonly #granted = (release: () => void, request: TurnRequest, since: number): Turn | Promise<Turn> => {
    const slotWaitMs = monotonicNow() - since;
    const ticket = this.#checkedTake(request, release);
    return typeof ticket === "number"
      ? this.#turn(release, ticket, slotWaitMs, undefined)
      : this.#paced(release, ticket, slotWaitMs);
  };

  /** The pacer's ticket, unless the turn would come after the call's deadline. */
  #checkedTake(request: TurnRequest, release: () => void): PaceTicket | Promise<PaceTicket> {
    const pacer = this.pacer;
    if (!pacer) return 0;
    const wait = request.deadlineAt !== undefined ? pacer.waitEstimateMs() : 0;
    if (request.deadlineAt !== undefined && wait > 0 && monotonicNow() + wait > request.deadlineAt) {
      release();
      throw new TooLate(wait, "the partner's pace would send it after the call's deadline");
    }
    return pacer.take(request.signal);
  }

  async #paced(release: () => void, pending: Promise<PaceTicket>, slotWaitMs: number | undefined): Promise<Turn> {
    const started = monotonicNow();
    let ticket: PaceTicket;
    try {
      ticket = await pending;
    } catch (error) {
      release(); // aborted while waiting for the pace
      throw error;
    }
    return this.#turn(release, ticket, slotWaitMs, monotonicNow() - started);
  }

  #turn(release: () => void, ticket: PaceTicket, slotWaitMs: number | undefined, paceWaitMs: number | undefined): Turn {
    let done = false;
    return {
      slotWaitMs,
      paceWaitMs,
      done: (outcome: TurnOutcome) => {
        if (done) return;
        done = true;
        if (outcome.kind === "rate-limited") {
          this.limiter.rateLimited(outcome.waitMs);
          // A 429 with Retry-After says when to come back: that wait governs (Section 8.3), and the
          // pacer does not learn a rate from it (it would only add its own waits on top).
          if (!outcome.retryAfter) this.pacer?.throttled(ticket);
        } else if (outcome.kind === "admitted") {
          this.pacer?.admitted();
        }
        release();
      },
    };
  }

  load(): PartnerLoad {
    const { limiter, pacer } = this;
    return {
      inFlight: limiter.active,
      queued: { interactive: limiter.queuedIn("interactive"), background: limiter.queuedIn("background") },
      concurrencyLimit: limiter.limit,
      pace: pacer?.rate,
      coolDownUntil: limiter.coolDownUntil,
      quietLeftMs: limiter.quietLeftMs,
    };
  }
}

const partners = new Map<string, LocalPartner>();

/** The default coordinator: every client of one environment, partner and settings in the process shares one state. */
export const localCoordinator: Coordinator = {
  partner(key: PartnerKey): LocalPartner {
    const id = `${key.environment}\n${key.partnerId ?? ""}\n${key.maxConcurrency}\n${key.reducedConcurrency}\n${key.quietMs}\n${key.pacing}`;
    let state = partners.get(id);
    if (!state) {
      state = new LocalPartner(
        new ConcurrencyLimiter({
          max: key.maxConcurrency,
          reduced: Math.min(key.maxConcurrency, key.reducedConcurrency),
          quietMs: key.quietMs,
        }),
        key.pacing ? new RatePacer() : undefined,
      );
      partners.set(id, state);
    }
    return state;
  },
};
