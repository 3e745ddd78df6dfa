/**
 * One partner's slots, pace and 429 cool-down inside the `AudienceCoordinator` object: what the
 * Redis coordinator keeps in Redis (src/redis/partner-script.ts), kept in the object's memory.
 *
 * - Slots are leases with an expiry, renewed by every request of the isolate that holds them: an
 *   isolate that dies mid-call frees its slot when the lease ends.
 * - The cap is Section 8.4's 8, 4 in the quiet period after a 429; the pace is the one rule set of
 *   coordination/pacing-rules.ts, called here directly (the object runs JavaScript).
 * - A turn that must wait (every slot taken, or the pace) waits here, in lane order, and is answered
 *   when its turn comes: one request per call, never a poll. It is held `holdMs` at most.
 * - Memory is all it has: an object that lost it (evicted, restarted) starts from what the isolates
 *   report (their leases, the quiet period and pace they know) and admits nobody until every holder
 *   reported (Section 8.4: 8 in flight for the partner, not 8 plus those it forgot): until as many
 *   isolates as they last counted did, half a lease at most (holders renew within a third of one).
 */
import {
  admitted,
  cut,
  idle,
  newPaceState,
  type PaceState,
  rateAt,
  take,
  throttled,
  tokenWaitMs,
} from "../coordination/pacing-rules.ts";
import { CLIENT_DEFAULTS } from "../limits.ts";
import type { PartnerAsk, PartnerReply, Release, RoomKey } from "./protocol.ts";
import { PROTOCOL } from "./protocol.ts";

const S = CLIENT_DEFAULTS.pacing;

interface Waiter {
  readonly id: string;
  readonly latestAt: number | undefined;
  readonly leaseMs: number;
  readonly since: number;
  slotMs: number;
  answer(kind: PartnerReply["kind"], wait: number): void;
}

type Answer = Pick<PartnerReply, "kind" | "wait" | "slotMs" | "paceMs" | "epoch">;

export class PartnerRoom {
  readonly #key: RoomKey;
  readonly #leases = new Map<string, number>();
  readonly #isolates = new Map<string, number>();
  readonly #lanes: { i: Waiter[]; b: Waiter[] } = { i: [], b: [] };
  /** Lease ids given back before their turn reached the object (then it is answered at once). */
  readonly #cancelled = new Map<string, number>();
  readonly #pace: PaceState = newPaceState(S);
  #rlAt = Number.NEGATIVE_INFINITY;
  #cool = 0;
  /** No admissions before this (the recovery after lost state). */
  #recoverUntil = 0;
  /** While recovering: the live isolates the partner had, as the isolates said, and those that reported. */
  #expected = 0;
  readonly #reported = new Set<string>();
  #heard = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #wakeAt = Number.POSITIVE_INFINITY;

  constructor(key: RoomKey) {
    this.#key = key;
  }

  /** Applies what an isolate reports, then waits for its turn if it asked one. */
  async exchange(ask: PartnerAsk): Promise<PartnerReply> {
    const now = Date.now();
    this.#report(ask, now);
    let answer: Answer = { kind: "none", wait: 0, slotMs: 0, paceMs: 0, epoch: this.#pace.ep };
    if (ask.take) answer = await this.#wait(ask, now);
    this.#pump(Date.now());
    return { ...answer, ...this.#state(Date.now()) };
  }

  #report(ask: PartnerAsk, now: number): void {
    if (!this.#heard) {
      this.#heard = true;
      // A state the object lost starts from what this isolate knows (as the Redis scripts do).
      if (ask.quietLeft > 0) this.#rlAt = now - Math.max(0, this.#key.quietMs - ask.quietLeft);
      if (this.#key.pacing === 1 && ask.pace !== null && ask.pace > 0) {
        cut(this.#pace, S, now, ask.pace, ask.pace, true);
        this.#pace.wa = now;
      }
      if (ask.seen === 1 || ask.held.length > 0) this.#recoverUntil = now + Math.ceil(ask.leaseMs / 2);
    } else if (ask.back === 1 || now < this.#recoverUntil) this.#rejoin(ask, now);
    if (now < this.#recoverUntil) this.#recovering(ask, now);
    this.#isolates.set(ask.iso, now);
    for (const [iso, at] of this.#isolates) if (now - at > ask.liveMs) this.#isolates.delete(iso);
    for (const release of ask.done) this.#release(release, now);
    // Leases held: renewed, and put back if the object lost them (their calls are still in flight).
    for (const id of ask.held) this.#leases.set(id, now + ask.leaseMs);
    for (const [id, at] of this.#cancelled) if (at < now) this.#cancelled.delete(id);
  }

  /**
   * While recovering: every isolate the partner had (as the isolates last counted them) reported
   * the leases it holds, so none is forgotten and turns may go at once. One that does not say the
   * count (an earlier release) leaves the half lease to run.
   */
  #recovering(ask: PartnerAsk, now: number): void {
    this.#expected = Math.max(this.#expected, ask.procs ?? Number.POSITIVE_INFINITY);
    this.#reported.add(ask.iso);
    if (this.#reported.size >= this.#expected) this.#recoverUntil = now;
  }

  /**
   * An isolate back from its fair share knows what the object did not see meanwhile: the pace,
   * which went idle here while nobody reached the object (unpaced, 8 calls would go at once and
   * meet 429s again), and a 429 it met. So does any isolate while the object rebuilds a state it
   * lost: the first to report may know no pace (its last answer had none) where the next does.
   */
  #rejoin(ask: PartnerAsk, now: number): void {
    if (ask.quietLeft > 0) this.#rlAt = Math.max(this.#rlAt, now - Math.max(0, this.#key.quietMs - ask.quietLeft));
    const off = this.#pace.en === 0 || idle(this.#pace, S, now);
    if (this.#key.pacing === 1 && off && ask.pace !== null && ask.pace > 0) {
      cut(this.#pace, S, now, ask.pace, ask.pace, true);
      this.#pace.wa = now;
    }
  }

  #release([id, outcome, waitMs, retryAfter, ticket]: Release, now: number): void {
    if (!this.#leases.delete(id)) {
      const waiter = this.#drop(id);
      if (waiter) waiter.answer("again", 0);
      else this.#cancelled.set(id, now + 60_000);
      return;
    }
    if (outcome === "a") {
      if (this.#key.pacing === 1) admitted(this.#pace, S, now);
    } else if (outcome === "r") {
      this.#rlAt = now;
      this.#cool = Math.max(this.#cool, now + waitMs);
      // A 429 with Retry-After says when to come back (Section 8.3): the pace learns nothing from it.
      if (this.#key.pacing === 1 && retryAfter === 0) throttled(this.#pace, S, now, ticket);
    }
  }

  #wait(ask: PartnerAsk, now: number): Promise<Answer> {
    const take = ask.take as NonNullable<PartnerAsk["take"]>;
    if (this.#cancelled.delete(take.id)) return Promise.resolve(this.#answer("again", 0, now, 0));
    return new Promise<Answer>((resolve) => {
      const hold = setTimeout(() => {
        this.#drop(take.id);
        resolve(this.#answer("again", 0, now, Date.now() - now));
      }, ask.holdMs);
      const waiter: Waiter = {
        id: take.id,
        latestAt: take.latestMs === null ? undefined : now + take.latestMs,
        leaseMs: ask.leaseMs,
        since: now,
        slotMs: 0,
        answer: (kind, wait) => {
          clearTimeout(hold);
          resolve(this.#answer(kind, wait, now, waiter.slotMs));
        },
      };
      this.#lanes[take.lane].push(waiter);
      this.#pump(now);
    });
  }

  #answer(kind: PartnerReply["kind"], wait: number, since: number, slotMs: number): Answer {
    const waited = Math.max(0, Date.now() - since);
    return { kind, wait, slotMs, paceMs: Math.max(0, waited - slotMs), epoch: this.#pace.ep };
  }

  #drop(id: string): Waiter | undefined {
    for (const lane of [this.#lanes.i, this.#lanes.b]) {
      const at = lane.findIndex((w) => w.id === id);
      if (at >= 0) return lane.splice(at, 1)[0];
    }
    return undefined;
  }

  #limit(now: number): number {
    const { max, reduced, quietMs } = this.#key;
    return now - this.#rlAt < quietMs ? Math.min(max, reduced) : max;
  }

  /** Grants the waiting turns that may go now, in lane order; sets a timer for the next that may. */
  #pump(now: number): void {
    for (const [id, until] of this.#leases) if (until <= now) this.#leases.delete(id);
    for (;;) {
      const head = this.#lanes.i[0] ?? this.#lanes.b[0];
      if (!head) return;
      if (now < this.#recoverUntil) {
        // Turns wait for their pace too: a pace learned from the isolates stays on (not idle) meanwhile.
        if (this.#pace.en === 1) this.#pace.wa = now;
        this.#wake(this.#recoverUntil);
        return;
      }
      if (this.#leases.size >= this.#limit(now)) {
        // A slot frees when a lease ends, or the quiet period does (the cap goes back up).
        const quietEnd = this.#rlAt + this.#key.quietMs;
        this.#wake(Math.min(...this.#leases.values(), quietEnd > now ? quietEnd : Number.POSITIVE_INFINITY));
        return;
      }
      if (head.slotMs === 0) head.slotMs = now - head.since;
      if (this.#key.pacing === 1 && this.#pace.en === 1 && !take(this.#pace, S, now)) {
        const wait = Math.ceil(tokenWaitMs(this.#pace, S, now));
        if (head.latestAt === undefined || now + wait <= head.latestAt) {
          this.#wake(now + Math.max(1, wait));
          return;
        }
        this.#drop(head.id);
        head.answer("late", wait);
        continue;
      }
      this.#drop(head.id);
      this.#leases.set(head.id, now + head.leaseMs);
      head.answer("ok", 0);
    }
  }

  #wake(at: number): void {
    if (this.#timer !== undefined && this.#wakeAt <= at) return;
    clearTimeout(this.#timer);
    this.#wakeAt = at;
    this.#timer = setTimeout(
      () => {
        this.#timer = undefined;
        this.#wakeAt = Number.POSITIVE_INFINITY;
        this.#pump(Date.now());
      },
      Math.max(1, at - Date.now()),
    );
  }

  #state(now: number): Omit<PartnerReply, keyof Answer> {
    const pacing = this.#key.pacing === 1 && this.#pace.en === 1 && !idle(this.#pace, S, now);
    return {
      v: PROTOCOL,
      limit: this.#limit(now),
      pace: pacing ? rateAt(this.#pace, S, now) : null,
      cool: this.#cool - now,
      procs: this.#isolates.size,
      quiet: Math.max(0, Math.min(this.#key.quietMs, this.#rlAt + this.#key.quietMs - now)),
      // Turns waiting for a slot (not for the pace): then a slot given back is wanted at once.
      waiting: this.#leases.size >= this.#limit(now) ? this.#lanes.i.length + this.#lanes.b.length : 0,
    };
  }
}
