/**
 * One partner's slots, pace and 429 cool-down in Redis, for every process of the partner.
 *
 * - A turn is one script call when nothing has to wait (ACQUIRE: a slot lease and the pace), and its
 *   end one more (RELEASE: frees the lease, reports the outcome): two round trips per call.
 * - Calls of this process wait in line here (lanes, abort: transport/limiter.ts with one place);
 *   the call at the head asks Redis, and asks again after the pace's wait or a short poll when the
 *   partner's slots are all taken.
 * - Leases expire `leaseMs` after they were last renewed; a timer renews this process's leases
 *   while it holds any, so a crashed process's slots are free again within `leaseMs`.
 * - When Redis does not answer (a timeout, a lost connection), calls go on with this process's fair
 *   share of the last state it saw: the cap and the pace divided by the live processes it last
 *   counted (transport/partner-state.ts's local state), and the shared state is used again as soon
 *   as Redis answers a probe. With `failClosed`, calls fail instead (a retryable NetworkError).
 */
import type {
  PartnerCoordination,
  PartnerKey,
  PartnerLoad,
  Turn,
  TurnOutcome,
  TurnRequest,
} from "../coordination/coordinator.ts";
import { TooLate } from "../coordination/coordinator.ts";
import { LONGEST_SHARED_COOL_DOWN_MS, trustedMsLeft } from "../coordination/stored-limits.ts";
import { monotonicNow } from "../internal/clock.ts";
import { onAbort } from "../internal/on-abort.ts";
import { sleep } from "../internal/sleep.ts";
import { CLIENT_DEFAULTS } from "../limits.ts";
import { AttemptFailure } from "../transport/failure.ts";
import { ConcurrencyLimiter } from "../transport/limiter.ts";
import type { LocalPartner } from "../transport/partner-state.ts";
import { type RedisCommands, RedisUnavailable, type Reply } from "./commands.ts";
import { fairShare } from "./fair-share.ts";
import { ACQUIRE, RELEASE, RENEW } from "./partner-script.ts";
import { type AcquireReply, acquireReply } from "./replies.ts";
import type { RedisSettings } from "./settings.ts";

const PACER_SETTINGS = JSON.stringify(CLIENT_DEFAULTS.pacing);
/** The reason a turn waiting in the fair share leaves it: Redis answers again. */
const RESTORED = Symbol("redis restored");

export class RedisPartner implements PartnerCoordination {
  readonly #redis: RedisCommands;
  readonly #keys: readonly string[];
  readonly #key: PartnerKey;
  readonly #s: RedisSettings;
  /** This process's line: one call at a time asks Redis, in lane order. */
  readonly #line = new ConcurrencyLimiter({ max: 1, reduced: 1, quietMs: 0 });
  readonly #held = new Set<string>();
  #leases = 0;
  #renewTimer: ReturnType<typeof setInterval> | undefined;
  /** When this process last took or ended a turn (monotonic). */
  #activeAt = 0;
  /** The latest shared state seen, and when (monotonic). */
  #limit: number;
  #pace: number | undefined;
  #coolDownUntil: number | undefined;
  #quietLeftMs = 0;
  #seenAt = 0;
  #processes = 1;
  /** While Redis does not answer: this process's fair share, and the probe that ends it. */
  #fallback: LocalPartner | undefined;
  #probing = false;
  /** Turns waiting in the fair share, moved back to the shared state when Redis answers again. */
  readonly #waitingOnFallback = new Set<AbortController>();

  constructor(redis: RedisCommands, keys: readonly string[], key: PartnerKey, settings: RedisSettings) {
    this.#redis = redis;
    this.#keys = keys;
    this.#key = key;
    this.#s = settings;
    this.#limit = key.maxConcurrency;
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
    if (this.#fallback) return this.#onFallback(this.#fallback, request);
    return this.#shared(request);
  }

  /**
   * A turn of this process's fair share. A call still waiting in it when Redis answers again moves
   * back to the shared state: the calls queued during an outage do not stay at the fair share.
   */
  async #onFallback(fallback: LocalPartner, request: TurnRequest): Promise<Turn> {
    const moving = new AbortController();
    const signal = request.signal;
    const stop = signal ? onAbort(signal, () => moving.abort(signal.reason)) : undefined;
    if (signal?.aborted) moving.abort(signal.reason);
    this.#waitingOnFallback.add(moving);
    try {
      const pending = fallback.turn({ ...request, signal: moving.signal });
      return pending instanceof Promise ? await pending : pending;
    } catch (error) {
      if (error !== RESTORED) throw error;
      return this.turn(request);
    } finally {
      this.#waitingOnFallback.delete(moving);
      stop?.();
    }
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
        this.#leases += 1;
        const leaseId = `${this.#s.processId}:${this.#leases}`;
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
            Math.max(0, Math.round(this.#quietLeftMs - (monotonicNow() - this.#seenAt))),
            this.#pace ?? "",
            this.#seenAt > 0 && monotonicNow() - this.#seenAt < this.#s.liveMs / 2 ? 1 : 0,
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
        this.#saw(state);
        if (kind === "ok") {
          this.#hold(leaseId);
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
    let done = false;
    return {
      slotWaitMs,
      paceWaitMs,
      done: (outcome: TurnOutcome) => {
        if (done) return;
        done = true;
        this.#held.delete(leaseId);
        this.#activeAt = monotonicNow();
        const code = outcome.kind === "admitted" ? "a" : outcome.kind === "rate-limited" ? "r" : "n";
        const waitMs = outcome.kind === "rate-limited" ? Math.ceil(outcome.waitMs) : 0;
        if (outcome.kind === "rate-limited") {
          // Known here at once; the shared state says the same once the reply comes.
          this.#coolDownUntil = Math.max(this.#coolDownUntil ?? 0, Date.now() + waitMs);
          this.#limit = Math.min(this.#key.maxConcurrency, this.#key.reducedConcurrency);
          this.#quietLeftMs = this.#key.quietMs;
          this.#seenAt = monotonicNow();
        }
        // Not awaited: the call has its response. A release that fails leaves the lease to expire.
        this.#redis
          .run(RELEASE, this.#keys, [
            PACER_SETTINGS,
            leaseId,
            code,
            waitMs,
            outcome.kind === "rate-limited" && outcome.retryAfter ? 1 : 0,
            ticket,
            this.#key.pacing ? 1 : 0,
            this.#s.stateTtlMs,
          ])
          .then(
            (reply) => {
              const [, pace, cool] = Array.isArray(reply) ? (reply as string[]) : [];
              if (pace === "" || Number(pace) > 0) this.#pace = pace === "" ? undefined : Number(pace);
              const left = trustedMsLeft(Number(cool), LONGEST_SHARED_COOL_DOWN_MS);
              if (left > 0) this.#coolDownUntil = Date.now() + left;
            },
            () => undefined,
          );
      },
    };
  }

  /** [limit, pace, cool-down left, processes, quiet left, epoch] from an ACQUIRE reply. */
  #saw(state: string[]): void {
    this.#limit = Number(state[0]);
    this.#pace = state[1] ? Number(state[1]) : undefined;
    // Never longer than this client sets: a state written by something else, or before a clock step.
    const cool = trustedMsLeft(Number(state[2]), LONGEST_SHARED_COOL_DOWN_MS);
    this.#coolDownUntil = cool > 0 ? Date.now() + cool : this.#coolDownUntil;
    this.#processes = Math.max(1, Number(state[3]));
    this.#quietLeftMs = Number(state[4]);
    this.#seenAt = monotonicNow();
  }

  #hold(leaseId: string): void {
    this.#held.add(leaseId);
    this.#activeAt = monotonicNow();
    if (this.#renewTimer) return;
    this.#renewTimer = setInterval(() => this.#renew(), this.#s.leaseMs / 3);
    (this.#renewTimer as { unref?: () => void }).unref?.();
  }

  /**
   * Renews this process's leases, and tells Redis it lives until liveMs after its last turn, so that
   * each process's fair share while Redis is away is of the processes live now (they count it too).
   */
  #renew(): void {
    if (this.#held.size === 0 && monotonicNow() - this.#activeAt > this.#s.liveMs) {
      this.#stopRenewing();
      return;
    }
    this.#redis
      .run(RENEW, this.#keys, [
        PACER_SETTINGS,
        this.#s.leaseMs,
        this.#s.processId,
        this.#s.stateTtlMs,
        this.#recoveryMs,
        ...this.#held,
      ])
      .then(
        (count) => {
          this.#processes = Math.max(1, Number(count));
        },
        () => undefined,
      );
  }

  #stopRenewing(): void {
    if (this.#renewTimer) clearInterval(this.#renewTimer);
    this.#renewTimer = undefined;
  }

  /** Redis did not answer: fail closed, or go on with this process's fair share until a probe succeeds. */
  #unavailable(request: TurnRequest, error: RedisUnavailable): Turn | Promise<Turn> {
    this.#s.onUnavailable?.(error);
    if (this.#s.failClosed) {
      throw new AttemptFailure("network", false, "the coordinator's Redis does not answer (failClosed: not sent)");
    }
    this.#fallback ??= fairShare(this.#key, {
      processes: this.#processes,
      quiet: this.#quietLeftMs > monotonicNow() - this.#seenAt,
      pace: this.#pace,
    });
    this.#probe();
    return this.#onFallback(this.#fallback, request);
  }

  /** What the fair share met while Redis was away (a 429, a pace), for a Redis that lost its state. */
  #learnFrom(fallback: LocalPartner | undefined): void {
    const load = fallback?.load();
    if (!load) return;
    const quietLeft = this.#quietLeftMs - (monotonicNow() - this.#seenAt);
    if (load.quietLeftMs > quietLeft) {
      this.#quietLeftMs = load.quietLeftMs;
      this.#seenAt = monotonicNow();
    }
    if (load.pace !== undefined) this.#pace = load.pace * Math.max(1, this.#processes);
  }

  #probe(): void {
    if (this.#probing) return;
    this.#probing = true;
    // Soon at first (a client still connecting at start-up), then every probeMs.
    let delay = 50;
    const attempt = (): void => {
      const wait = delay;
      delay = Math.min(this.#s.probeMs, delay * 2);
      const timer = setTimeout(() => {
        this.#redis.send("PING").then(
          () => {
            this.#probing = false;
            this.#learnFrom(this.#fallback);
            this.#fallback = undefined; // calls under way on the fair share finish there
            for (const waiting of this.#waitingOnFallback) waiting.abort(RESTORED);
            this.#s.onRestored?.();
          },
          () => attempt(),
        );
      }, wait);
      (timer as { unref?: () => void }).unref?.();
    };
    attempt();
  }

  load(): PartnerLoad {
    const fallback = this.#fallback?.load();
    const sinceMs = monotonicNow() - this.#seenAt;
    return {
      inFlight: this.#held.size + (fallback?.inFlight ?? 0),
      queued: {
        interactive: this.#line.queuedIn("interactive") + (fallback?.queued.interactive ?? 0),
        background: this.#line.queuedIn("background") + (fallback?.queued.background ?? 0),
      },
      concurrencyLimit:
        fallback?.concurrencyLimit ?? (this.#quietLeftMs > sinceMs ? this.#limit : this.#key.maxConcurrency),
      pace: fallback ? fallback.pace : this.#pace,
      coolDownUntil: this.#coolDownUntil,
      quietLeftMs: Math.max(0, this.#quietLeftMs - sinceMs),
    };
  }
}
