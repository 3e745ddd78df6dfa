/**
 * What a partner's turn does the same way whichever shared store holds the partner's state (the
 * Redis coordinator, the Durable Object coordinator), written once; each store's partner keeps its
 * own requests (scripts, exchanges), leases and probe:
 *
 * - a finished turn: the outcome the store is told, and a 429 known to this process at once;
 * - a store that does not answer: fail closed, or this process's fair share of the state it last
 *   saw (fair-share.ts), told once per failure to `onUnavailable`;
 * - the fair share's turns: one still waiting when the store answers again goes back to it, so the
 *   calls queued during an outage do not stay at the fair share;
 * - the load the client reads between replies (`PartnerLoad`).
 */
import { onAbort } from "../internal/on-abort.ts";
import { AttemptFailure } from "../transport/failure.ts";
import type { ConcurrencyLimiter } from "../transport/limiter.ts";
import type { LocalPartner } from "../transport/partner-state.ts";
import type { PartnerKey, PartnerLoad, Turn, TurnOutcome, TurnRequest } from "./coordinator.ts";
import { fairShare } from "./fair-share.ts";
import type { SeenState } from "./seen-state.ts";

/** What a store is told of a finished turn. */
export interface FinishedTurn {
  /** a: admitted (any status but 429), r: 429, n: no response or abandoned. */
  readonly code: "a" | "r" | "n";
  /** For a 429: the wait it asks (ms, Section 8.3); else 0. */
  readonly waitMs: number;
  /** 1 when the 429 gave Retry-After (the pace learns nothing from it). */
  readonly retryAfter: 0 | 1;
}

/**
 * A turn the store granted: its first `done` tells `finish` what the store is to hear (later ones
 * change nothing), a 429 known to this process at once (`seen`).
 */
export function storeTurn(
  seen: SeenState,
  slotWaitMs: number | undefined,
  paceWaitMs: number | undefined,
  finish: (finished: FinishedTurn) => void,
): Turn {
  let done = false;
  return {
    slotWaitMs,
    paceWaitMs,
    done: (outcome: TurnOutcome) => {
      if (done) return;
      done = true;
      finish(finishedTurn(outcome, seen));
    },
  };
}

function finishedTurn(outcome: TurnOutcome, seen: SeenState): FinishedTurn {
  if (outcome.kind !== "rate-limited")
    return { code: outcome.kind === "admitted" ? "a" : "n", waitMs: 0, retryAfter: 0 };
  const waitMs = Math.ceil(outcome.waitMs);
  seen.rateLimited(waitMs);
  return { code: "r", waitMs, retryAfter: outcome.retryAfter ? 1 : 0 };
}

/** How a store's partner behaves when its store does not answer. */
export interface WhenUnavailable {
  readonly failClosed: boolean;
  readonly onUnavailable: ((error: Error) => void) | undefined;
}

/**
 * The store did not answer (`store` names it in the failure): with `failClosed`, the call fails
 * (a retryable NetworkError, not sent); else how to make the fair share to go on with (the store's
 * partner keeps the one it makes until the store answers again).
 */
export function fairShareOrFail(
  key: PartnerKey,
  seen: SeenState,
  s: WhenUnavailable,
  error: Error,
  store: string,
): () => LocalPartner {
  s.onUnavailable?.(error);
  if (s.failClosed) throw new AttemptFailure("network", false, `${store} does not answer (failClosed: not sent)`);
  return () => fairShare(key, { processes: seen.processes, quiet: seen.quietLeftNow > 0, pace: seen.pace });
}

/** The reason a turn waiting in the fair share leaves it: the store answers again. */
const RESTORED = Symbol("the shared store answers again");

/** The turns waiting in the fair share, moved back to the store when it answers again. */
export class FallbackLine {
  readonly #waiting = new Set<AbortController>();

  /**
   * A turn of `fallback` (passed through `granted`, which a store uses to follow the fair share's
   * calls); one still waiting when the store answers again is asked `again`, of the store.
   */
  async turn(
    fallback: LocalPartner,
    request: TurnRequest,
    again: (r: TurnRequest) => Turn | Promise<Turn>,
    granted: (turn: Turn) => Turn = (turn) => turn,
  ): Promise<Turn> {
    const moving = new AbortController();
    const signal = request.signal;
    const stop = signal ? onAbort(signal, () => moving.abort(signal.reason)) : undefined;
    if (signal?.aborted) moving.abort(signal.reason);
    this.#waiting.add(moving);
    try {
      const pending = fallback.turn({ ...request, signal: moving.signal });
      return granted(pending instanceof Promise ? await pending : pending);
    } catch (error) {
      if (error !== RESTORED) throw error;
      return again(request);
    } finally {
      this.#waiting.delete(moving);
      stop?.();
    }
  }

  /** The store answers again: the turns still waiting go back to it (those under way finish here). */
  restored(): void {
    for (const waiting of this.#waiting) waiting.abort(RESTORED);
  }
}

/** What this process holds and queues for the partner beside the fair share. */
export interface OwnTurns {
  /** Leases held at the store. */
  readonly inFlight: number;
  /** This process's line to the store. */
  readonly line: ConcurrencyLimiter;
}

/** The partner's load as this process sees it: its own turns, the fair share's if one runs, the state last seen. */
export function storeLoad(
  key: PartnerKey,
  seen: SeenState,
  own: OwnTurns,
  fallback: PartnerLoad | undefined,
): PartnerLoad {
  const quietLeftMs = seen.quietLeftNow;
  return {
    inFlight: own.inFlight + (fallback?.inFlight ?? 0),
    queued: {
      interactive: own.line.queuedIn("interactive") + (fallback?.queued.interactive ?? 0),
      background: own.line.queuedIn("background") + (fallback?.queued.background ?? 0),
    },
    concurrencyLimit: fallback?.concurrencyLimit ?? (quietLeftMs > 0 ? seen.limit : key.maxConcurrency),
    pace: fallback ? fallback.pace : seen.pace,
    coolDownUntil: seen.coolDownUntil,
    quietLeftMs: Math.max(0, quietLeftMs),
  };
}
