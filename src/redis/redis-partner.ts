/**
 * One partner's slots, pace and 429 cool-down in Redis, for every process of the partner.
 *
 * - A turn is one script call when nothing has to wait (ACQUIRE: a slot lease and the pace), and its
 *   end one more (RELEASE: frees the lease, reports the outcome): two round trips per call.
 * - Calls of this process wait in line here (lanes, abort: transport/limiter.ts with one place);
 *   the call at the head asks Redis, and asks again after the pace's wait or a short poll when the
 *   partner's slots are all taken.
 * - Leases expire `leaseMs` after they were last renewed; a timer renews this process's leases
 *   while it holds any (lease-renewal.ts), so a crashed process's slots are free again within `leaseMs`.
 * - When Redis does not answer (a timeout, a lost connection), calls go on with this process's fair
 *   share of the last state it saw: the cap and the pace divided by the live processes it last
 *   counted (transport/partner-state.ts's local state), and the shared state is used again as soon
 *   as Redis answers a probe. With `failClosed`, calls fail instead (a retryable NetworkError).
 * - What a turn does alike at every store (its outcome told, the fair share, the load) is
 *   coordination/store-turns.ts; this file keeps Redis's scripts, leases and probe.
 */
import type { PartnerCoordination, PartnerKey, PartnerLoad, Turn, TurnRequest } from "../coordination/coordinator.ts";
import { TooLate } from "../coordination/coordinator.ts";
import { FallbackLine, fairShareOrFail, storeLoad, storeTurn } from "../coordination/store-turns.ts";
import { monotonicNow } from "../internal/clock.ts";
import { sleep } from "../internal/sleep.ts";
import { CLIENT_DEFAULTS } from "../limits.ts";
import { ConcurrencyLimiter } from "../transport/limiter.ts";
import type { LocalPartner } from "../transport/partner-state.ts";
import { type RedisCommands, RedisUnavailable, type Reply } from "./commands.ts";
import { LeaseRenewal } from "./lease-renewal.ts";
import { partnerScripts } from "./partner-script.ts";
import { probeUntilAnswered } from "./probe.ts";
import { type AcquireReply, acquireReply } from "./replies.ts";
import { SeenState } from "./seen-state.ts";
import type { RedisSettings } from "./settings.ts";

const PACER_SETTINGS = JSON.stringify(CLIENT_DEFAULTS.pacing);
const { acquire: ACQUIRE, release: RELEASE, renew: RENEW } = partnerScripts();

export class RedisPartner implements PartnerCoordination {
  readonly #redis: RedisCommands;
  readonly #keys: readonly string[];
  readonly #key: PartnerKey;
  readonly #s: RedisSettings;
  /** This process's line: one call at a time asks Redis, in lane order. */
  readonly #line = new ConcurrencyLimiter({ max: 1, reduced: 1, quietMs: 0 });
  readonly #leases: LeaseRenewal;
  #leaseCount = 0;
  /** The latest shared state seen, and when (monotonic). */
  readonly #seen: SeenState;
  /** While Redis does not answer: this process's fair share, and the probe that ends it. */
  #fallback: LocalPartner | undefined;
  #probing = false;
  /** Turns waiting in the fair share, moved back to the shared state when Redis answers again. */
  readonly #fallbackLine = new FallbackLine();

  constructor(redis: RedisCommands, keys: readonly string[], key: PartnerKey, settings: RedisSettings) {
    this.#redis = redis;
    this.#keys = keys;
    this.#key = key;
    this.#s = settings;
    this.#seen = new SeenState(key);
    this.#leases = new LeaseRenewal((held) => this.#renew(held), settings.leaseMs, settings.liveMs);
  }

  /** No admissions this long after Redis lost the state: holders renew within a third of a lease. */
  get #recoveryMs(): number {
    return Math.ceil(this.#s.leaseMs / 2);
  }

  /** Whether calls run on this process's fair share because Redis does not answer. */
  get degraded(): boolean {
    return this.#fallback !== undefined;
  }

  turn(request: TurnRequest): Turn | Promise<Turn> {
    if (this.#fallback) return this.#fallbackLine.turn(this.#fallback, request, (r) => this.turn(r));
    return this.#shared(request);
  }

  async #shared(request: TurnRequest): Promise<Turn> {
    const started = monotonicNow();
    let leave = !request.signal?.aborted && this.#line.tryAcquire();
    if (!leave) leave = await this.#line.acquire(request.signal, request.lane);
    let slotWaitMs: number | undefined;
    let paceWaitMs: number | undefined;
    let yielded = false;
    try {
      for (;;) {
        this.#leaseCount += 1;
        const leaseId = `${this.#s.processId}:${this.#leaseCount}`;
        let reply: Reply;
        try {
          reply = await this.#redis.run(ACQUIRE, this.#keys, [
            PACER_SETTINGS,
            leaseId,
            this.#s.leaseMs,
            this.#key.maxConcurrency,
            this.#key.reducedConcurrency,
            this.#key.quietMs,
            this.#key.pacing ? 1 : 0,
            this.#s.processId,
            this.#s.liveMs,
            this.#s.stateTtlMs,
            Math.max(0, Math.round(this.#seen.quietLeftNow)),
            this.#seen.pace ?? "",
            this.#seen.seenWithin(this.#s.liveMs / 2) ? 1 : 0,
            this.#recoveryMs,
          ]);
        } catch (error) {
          if (!(error instanceof RedisUnavailable)) throw error;
          return this.#unavailable(request, error);
        }
        let parsed: AcquireReply;
        try {
          parsed = acquireReply(reply, this.#key.maxConcurrency, this.#key.quietMs);
        } catch (error) {
          return this.#unavailable(request, error as RedisUnavailable);
        }
        const { kind, waitMs, state } = parsed;
        this.#seen.saw(state);
        if (kind === "ok") {
          this.#leases.hold(leaseId);
          return this.#turn(leaseId, parsed.epoch, slotWaitMs, paceWaitMs);
        }
        if (kind === "pace") {
          if (request.deadlineAt !== undefined && monotonicNow() + waitMs > request.deadlineAt) {
            throw new TooLate(waitMs, "the partner's pace would send it after the call's deadline");
          }
          const t = monotonicNow();
          await sleep(Math.max(1, waitMs), request.signal);
          paceWaitMs = (paceWaitMs ?? 0) + (monotonicNow() - t);
        } else {
          // Every slot of the partner is taken: ask again shortly (a release is not announced).
          await sleep(this.#s.pollMs * (0.5 + Math.random()), request.signal);
          slotWaitMs = monotonicNow() - started - (paceWaitMs ?? 0);
          if (request.lane === "background" && !yielded && this.#line.queuedIn("interactive") > 0) {
            // An interactive call came while this one waited for a slot: it goes first (once per
            // call, so the background lane is slowed, never starved: transport/limiter.ts).
            yielded = true;
            leave();
            leave = await this.#line.acquire(request.signal, "background");
          }
        }
      }
    } finally {
      leave();
    }
  }

  #turn(leaseId: string, ticket: number, slotWaitMs: number | undefined, paceWaitMs: number | undefined): Turn {
    return storeTurn(this.#seen, slotWaitMs, paceWaitMs, ({ code, waitMs, retryAfter }) => {
      this.#leases.end(leaseId);
      // Not awaited: the call has its response. A release that fails leaves the lease to expire.
      this.#redis
        .run(RELEASE, this.#keys, [
          PACER_SETTINGS,
          leaseId,
          code,
          waitMs,
          retryAfter,
          ticket,
          this.#key.pacing ? 1 : 0,
          this.#s.stateTtlMs,
        ])
        .then(
          (reply) => this.#seen.released(reply),
          () => undefined,
        );
    });
  }

  /** Renews this process's leases (lease-renewal.ts) and counts the live processes. */
  #renew(held: ReadonlySet<string>): void {
    this.#redis
      .run(RENEW, this.#keys, [
        PACER_SETTINGS,
        this.#s.leaseMs,
        this.#s.processId,
        this.#s.stateTtlMs,
        this.#recoveryMs,
        ...held,
      ])
      .then(
        (count) => {
          this.#seen.processes = Math.max(1, Number(count));
        },
        () => undefined,
      );
  }

  /** Redis did not answer: fail closed, or go on with this process's fair share until a probe succeeds. */
  #unavailable(request: TurnRequest, error: RedisUnavailable): Turn | Promise<Turn> {
    const fairShare = fairShareOrFail(this.#key, this.#seen, this.#s, error, "the coordinator's Redis");
    this.#fallback ??= fairShare();
    this.#probe();
    return this.#fallbackLine.turn(this.#fallback, request, (r) => this.turn(r));
  }

  #probe(): void {
    if (this.#probing) return;
    this.#probing = true;
    probeUntilAnswered(this.#redis, this.#s.probeMs, () => {
      this.#probing = false;
      this.#seen.learnFrom(this.#fallback?.load());
      this.#fallback = undefined; // calls under way on the fair share finish there
      this.#fallbackLine.restored();
      this.#s.onRestored?.();
    });
  }

  /**
   * Stops this process's renewals and takes it off the partner's live processes at once, so the
   * others' fair share counts without it; best effort (a Redis that is away forgets it in `liveMs`).
   */
  async close(): Promise<void> {
    this.#leases.stop();
    await this.#redis.send("ZREM", this.#keys[2] as string, this.#s.processId).catch(() => undefined);
  }

  load(): PartnerLoad {
    return storeLoad(
      this.#key,
      this.#seen,
      { inFlight: this.#leases.held.size, line: this.#line },
      this.#fallback?.load(),
    );
  }
}
