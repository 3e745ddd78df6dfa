/**
 * One partner's slots, pace and 429 cool-down held by an `AudienceCoordinator` object, as one
 * isolate uses them.
 *
 * - One request per call while busy: a turn is one exchange (partner-room.ts waits there until the
 *   slot and the pace allow it, so a waiting call never polls), and it carries the slots this
 *   isolate gave back since its last exchange and renews the leases it holds. While one turn
 *   waits at the object, the next waits here (ride-gate.ts) for a slot given back and carries it:
 *   a second turn at the object only with a release on it. A slot given back with nothing to ride
 *   on goes on its own after `releaseDelayMs`, at once after a 429 or when the object said other
 *   turns wait.
 * - Calls of this isolate wait in line here (lanes, abort: transport/limiter.ts with two places):
 *   at most two turns at a time are asked of the object, in lane order.
 * - When the object does not answer (a binding that throws, an object being restarted, a reply of
 *   another shape), calls go on with this isolate's fair share of the last state it saw, said
 *   once through the logger, and the object is used again as soon as it answers a probe, told of
 *   the calls the fair share still runs (an object that lost its memory counts them).
 * - What a turn does alike at every store (its outcome told, the fair share, the load) is
 *   coordination/store-turns.ts; this file keeps the object's exchanges, leases and releases.
 */
import type { PartnerCoordination, PartnerKey, PartnerLoad, Turn, TurnRequest } from "../coordination/coordinator.ts";
import { TooLate } from "../coordination/coordinator.ts";
import { fairShareOrFail, storeLoad, storeTurn } from "../coordination/store-turns.ts";
import { monotonicNow } from "../internal/clock.ts";
import { ConcurrencyLimiter } from "../transport/limiter.ts";
import { FallbackTurns } from "./fallback-turns.ts";
import type { ObjectLink } from "./link.ts";
import {
  ObjectUnavailable,
  type PartnerAsk,
  type PartnerReply,
  PROTOCOL,
  partnerReply,
  type Release,
  type RoomKey,
  type TakeAsk,
} from "./protocol.ts";
import { RideGate } from "./ride-gate.ts";
import { ObjectSeen } from "./seen-state.ts";
import type { ObjectSettings } from "./settings.ts";
import { cancel } from "./timers.ts";

/** Releases kept at most while the object is away (older ones are left to expire). */
const MAX_QUEUED_RELEASES = 1_000;

export class ObjectPartner implements PartnerCoordination {
  readonly #link: ObjectLink;
  readonly #key: PartnerKey;
  readonly #room: RoomKey;
  readonly #s: ObjectSettings;
  readonly #line = new ConcurrencyLimiter({ max: 2, reduced: 2, quietMs: 0 });
  readonly #gate = new RideGate();
  /** The leases this isolate holds at the object, with their tickets. */
  readonly #held = new Map<string, number>();
  #released: Release[] = [];
  /** Timers belong to the request that set them (Workers): one whose request ended never fires, so each is re-armed. */
  #flushTimer: ReturnType<typeof setTimeout> | undefined;
  #flushAt = 0;
  #renewTimer: ReturnType<typeof setTimeout> | undefined;
  /** The turns this isolate is asking of the object now, and the turns it withdrew. */
  readonly #asking = new Set<TakeAsk>();
  readonly #withdrawn = new Set<string>();
  readonly #seen: ObjectSeen;
  readonly #fallback: FallbackTurns;

  constructor(link: ObjectLink, key: PartnerKey, settings: ObjectSettings) {
    this.#link = link;
    this.#key = key;
    this.#room = {
      max: key.maxConcurrency,
      reduced: key.reducedConcurrency,
      quietMs: Math.round(key.quietMs),
      pacing: key.pacing ? 1 : 0,
    };
    this.#s = settings;
    this.#seen = new ObjectSeen(key, link.name);
    this.#fallback = new FallbackTurns(link.name, settings, () => this.#sync(), {
      held: (id) => this.#held.has(id),
      done: (id, outcome) => this.#turn(id, 0, undefined, undefined).done(outcome),
      restored: (load) => this.#seen.learnFrom(load),
    });
  }

  /** Whether calls run on this isolate's fair share because the object does not answer. */
  get degraded(): boolean {
    return this.#fallback.active !== undefined;
  }

  turn(request: TurnRequest): Turn | Promise<Turn> {
    const fallback = this.#fallback.active;
    if (fallback) return this.#fallback.turn(fallback, request, (r) => this.turn(r));
    return this.#shared(request);
  }

  async #shared(request: TurnRequest): Promise<Turn> {
    const started = monotonicNow();
    const background = request.lane === "background";
    let leave = !request.signal?.aborted && this.#line.tryAcquire();
    if (!leave) {
      // An interactive call goes before a background turn waiting at the object (transport/limiter.ts).
      if (!background) for (const asked of this.#asking) if (asked.lane === "b") this.#withdraw(asked.id);
      leave = await this.#line.acquire(request.signal, request.lane);
    }
    try {
      for (;;) {
        await this.#rideOrGo(request.signal);
        const id = this.#s.nextLeaseId();
        const latest =
          request.deadlineAt === undefined ? null : Math.max(0, Math.floor(request.deadlineAt - monotonicNow()));
        const take: TakeAsk = { id, lane: background ? "b" : "i", latestMs: latest };
        let reply: PartnerReply;
        this.#asking.add(take);
        try {
          reply = await abortable(this.#exchange(take), request.signal, () => this.#withdraw(id));
        } catch (error) {
          if (!(error instanceof ObjectUnavailable)) throw error;
          return this.#unavailable(request, error);
        } finally {
          this.#asking.delete(take);
          this.#gate.open();
        }
        if (reply.kind === "late")
          throw new TooLate(reply.wait, "the partner's pace would send it after the call's deadline");
        if (reply.kind !== "ok" || this.#withdrawn.delete(id)) {
          if (background && this.#line.queuedIn("interactive") > 0) {
            leave();
            leave = await this.#line.acquire(request.signal, "background");
          }
          continue; // held its longest, or withdrawn: ask again
        }
        this.#held.set(id, reply.epoch);
        const lineMs = monotonicNow() - started - reply.slotMs - reply.paceMs;
        const slotMs = reply.slotMs + Math.max(0, lineMs);
        return this.#turn(
          id,
          reply.epoch,
          slotMs > 1 ? slotMs : undefined,
          reply.paceMs > 0 ? reply.paceMs : undefined,
        );
      }
    } finally {
      leave();
    }
  }

  /** With a turn at the object already, a second goes only with a slot given back to carry (or once that one is answered). */
  #rideOrGo(signal: AbortSignal | undefined): Promise<void> {
    const wait = () => this.#asking.size > 0 && this.#released.length === 0 && !this.#fallback.active;
    // Aborted while waiting: what was to ride on it goes on its own.
    return this.#gate.until(wait, signal, () => this.#released.length > 0 && this.#flush());
  }

  /** Gives back a turn asked of the object: it answers "again", or frees the slot if it was granted meanwhile. */
  #withdraw(id: string): void {
    this.#withdrawn.add(id);
    this.#giveBack([id, "n", 0, 0, 0], true);
  }

  #turn(id: string, ticket: number, slotWaitMs: number | undefined, paceWaitMs: number | undefined): Turn {
    return storeTurn(this.#seen, slotWaitMs, paceWaitMs, ({ code, waitMs, retryAfter }) => {
      this.#held.delete(id);
      this.#giveBack([id, code, waitMs, retryAfter, ticket], code === "r" || this.#seen.waiting > 0);
    });
  }

  /** Queues a slot given back: it rides on the next exchange, or goes on its own soon (`urgent`: now). */
  #giveBack(release: Release, urgent: boolean): void {
    this.#released.push(release);
    if (this.#gate.occupied) {
      this.#gate.open(); // a turn waiting for it carries it now
      return;
    }
    if (urgent) {
      this.#flush();
      return;
    }
    const now = monotonicNow();
    // A timer past its time was lost with the request that set it (a client kept across requests).
    if (this.#flushTimer !== undefined && now < this.#flushAt) return;
    this.#flushAt = now + this.#s.releaseDelayMs;
    this.#flushTimer = setTimeout(() => this.#flush(), this.#s.releaseDelayMs);
  }

  #flush(): void {
    cancel(this.#flushTimer);
    this.#flushTimer = undefined;
    if (this.#released.length === 0 || this.#fallback.active) return;
    this.#sync().catch(() => undefined);
  }

  /** A third of a lease after the latest exchange, while leases are held: renews them. */
  #armRenewal(): void {
    cancel(this.#renewTimer);
    this.#renewTimer = undefined;
    if (this.#held.size === 0 && this.#fallback.held.size === 0) return;
    this.#renewTimer = setTimeout(() => {
      this.#renewTimer = undefined;
      if (!this.#fallback.active) this.#sync().catch(() => undefined);
    }, this.#s.leaseMs / 3);
  }

  /** An exchange without a turn: gives back, renews, learns the state. */
  #sync(): Promise<PartnerReply> {
    return this.#exchange(null);
  }

  async #exchange(take: TakeAsk | null): Promise<PartnerReply> {
    const done = this.#released;
    this.#released = [];
    const held = [...this.#held.keys(), ...this.#fallback.held];
    // Back from the fair share: what it learned (a pace, a 429) is newer than the object's state.
    const share = this.#fallback.active?.load();
    const sharePace = share?.pace === undefined ? undefined : share.pace * Math.max(1, this.#seen.processes);
    const ask: PartnerAsk = {
      v: PROTOCOL,
      op: "partner",
      room: this.#room,
      iso: this.#s.isolateId,
      seen: this.#seen.seenWithin(this.#s.liveMs / 2) ? 1 : 0,
      quietLeft: Math.max(0, Math.round(this.#seen.quietLeftNow), Math.round(share?.quietLeftMs ?? 0)),
      pace: sharePace ?? this.#seen.pace ?? null,
      back: share ? 1 : 0,
      procs: this.#seen.processes,
      leaseMs: this.#s.leaseMs,
      liveMs: this.#s.liveMs,
      holdMs: this.#s.holdMs,
      held,
      done,
      take,
    };
    let reply: PartnerReply;
    try {
      const timeout = (take ? this.#s.holdMs : 0) + this.#s.answerMs;
      reply = partnerReply(await this.#link.send(ask, timeout), this.#room, this.#key.quietMs);
    } catch (error) {
      // Not given back this time: they go with the next exchange (or their leases lapse).
      this.#released = [...done, ...this.#released].slice(-MAX_QUEUED_RELEASES);
      throw error;
    } finally {
      this.#armRenewal();
    }
    this.#seen.saw(reply);
    this.#fallback.reported(held, (id) => this.#held.set(id, 0));
    return reply;
  }

  /** The object did not answer: fail closed, or go on with this isolate's fair share until a probe succeeds. */
  #unavailable(request: TurnRequest, error: ObjectUnavailable): Turn | Promise<Turn> {
    const fairShare = fairShareOrFail(this.#key, this.#seen, this.#s, error, "the coordinator object");
    const fallback = this.#fallback.start(error, fairShare);
    return this.#fallback.turn(fallback, request, (r) => this.turn(r));
  }

  load(): PartnerLoad {
    const own = { inFlight: this.#held.size, line: this.#line };
    return storeLoad(this.#key, this.#seen, own, this.#fallback.active?.load());
  }
}

/** `pending`, unless `signal` aborts first: then `withdraw` gives the turn back (it may be granted meanwhile). */
function abortable<T>(pending: Promise<T>, signal: AbortSignal | undefined, withdraw: () => void): Promise<T> {
  if (!signal) return pending;
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      pending.catch(() => undefined);
      withdraw();
      reject(signal.reason);
    };
    if (signal.aborted) return abort();
    signal.addEventListener("abort", abort, { once: true });
    pending.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}
