/**
 * The `coordinator` option: where a partner's shared state lives. The API's limits are
 * per partner, not per process (Sections 5, 8), so the state that enforces them is the partner's:
 *
 * - its concurrency slots (8, 4 in the quiet period after a 429: Section 8.4), its pace (the
 *   learned rate, Section 8.1) and its 429 cool-down: `partner()`;
 * - its session (one sign-in, shared refreshes, the /auth cool-down: Sections 5, 8.5): `session()`.
 *
 * The default keeps both in the process, shared by every client of one environment and partner
 * (transport/partner-state.ts). `redisCoordinator` (the `/redis` entry) keeps them in Redis for
 * every process of the partner; `fileCoordinator` (the `/node` entry) shares the session of the
 * processes of one host. Every coordinator passes the same conformance suite
 * (test/coordination/conformance.ts). This module holds only types (and `TooLate`): it depends on the token shape alone.
 */

import type { SessionTokens } from "../session/tokens.ts";

/** A call's lane: `priority: "low"` waits in the background lane. */
export type Lane = "interactive" | "background";

/** What a partner's state is keyed by, and the settings that shape it. */
export interface PartnerKey {
  /** Origin and path of the client's base address. */
  readonly environment: string;
  /** The partner (undefined: calls made before the partner is known). */
  readonly partnerId: string | undefined;
  /** Calls in flight at most (Section 8.4's 8 unless configured lower). */
  readonly maxConcurrency: number;
  /** Calls in flight during the quiet period after a 429 (Section 8.4's 4, at most `maxConcurrency`). */
  readonly reducedConcurrency: number;
  /** How long the reduced cap lasts after the latest 429 (Section 8.4). */
  readonly quietMs: number;
  /** Whether calls are paced once 429s show the partner's rate (the `ratePacing` option). */
  readonly pacing: boolean;
}

/** What a call asks a turn with. */
export interface TurnRequest {
  /** The call's signal: a turn it aborts while waiting is given up, rejected with its reason. */
  readonly signal: AbortSignal | undefined;
  /** The call's lane. */
  readonly lane: Lane;
  /**
   * The call's deadline (monotonic ms, performance.now()): a turn that would come later is refused
   * with {@link TooLate} instead of being waited for.
   */
  readonly deadlineAt: number | undefined;
}

/** How a call that held a turn ended. */
export type TurnOutcome =
  | {
      /** The partner admitted it (any status but 429). */
      readonly kind: "admitted";
    }
  | {
      /** A 429. */
      readonly kind: "rate-limited";
      /** Its Retry-After in ms, else Section 8.3's least wait. */
      readonly waitMs: number;
      /** Whether the server gave a Retry-After (then the pace learns nothing from it). */
      readonly retryAfter: boolean;
    }
  | {
      /** No response (a network failure or an abort): frees the slot, teaches nothing. */
      readonly kind: "no-response";
    };

/** A slot held for one attempt, sent at the partner's pace. */
export interface Turn {
  /** Ms the call waited for a slot (undefined when it did not wait). */
  readonly slotWaitMs: number | undefined;
  /** Ms the call waited for the partner's pace (undefined when it did not wait). */
  readonly paceWaitMs: number | undefined;
  /**
   * Frees the slot and reports the outcome. Idempotent. It only reports: if it throws, the client
   * ignores that, and the call ends as its attempt did.
   */
  done(outcome: TurnOutcome): void;
}

/** Thrown by `turn` when the turn would come after the call's deadline. */
export class TooLate extends Error {
  /** About how long the turn was away, in ms. */
  readonly waitMs: number;
  constructor(waitMs: number, why: string) {
    super(why);
    this.name = "TooLate";
    this.waitMs = waitMs;
  }
}

/** What the process knows of a partner's state now, for `client.rateState()`. */
export interface PartnerLoad {
  /** This process's calls holding a slot. */
  readonly inFlight: number;
  /** This process's calls waiting for a turn, per lane. */
  readonly queued: {
    /** Of the interactive lane. */
    readonly interactive: number;
    /** Of the background lane. */
    readonly background: number;
  };
  /** The partner's cap in force now. */
  readonly concurrencyLimit: number;
  /** Calls per second the partner's pace allows, undefined while it does not pace. */
  readonly pace: number | undefined;
  /** Epoch ms (local clock) until which the latest 429 asked the partner's calls to wait. */
  readonly coolDownUntil: number | undefined;
  /** Ms until the quiet period after the latest 429 ends (0 when not in one). */
  readonly quietLeftMs: number;
}

/** One partner's shared state, as a coordinator keeps it. */
export interface PartnerCoordination {
  /**
   * A slot and the partner's pace for one attempt: at once when free (no promise), else in turn.
   * Throwing or rejecting fails the call with that error, nothing sent; {@link TooLate} makes it a
   * TimeoutError (the call's deadline comes before its turn). A store that is away should rather go
   * on with a fair share, or fail with a retryable error, as the package's stores do.
   */
  turn(request: TurnRequest): Turn | Promise<Turn>;
  /** What is known now, without waiting (a shared coordinator answers from its latest reply). */
  load(): PartnerLoad;
}

/** The shared session record as read. */
export interface SharedSessionRecord {
  /** The group's tokens, once one process has signed in. */
  readonly tokens?: Readonly<SessionTokens>;
  /** Ms left of the group's /auth cool-down (a sign-in or refresh failed with 429, 5xx or no response). */
  readonly coolDownMs?: number;
  /** The fencing token of the write that stored this record (0 before any). */
  readonly fence: number;
}

/**
 * Where the processes of one group share their session: the tokens one process obtained, and a
 * lock so that one of them signs in or refreshes while the others wait and adopt its tokens.
 */
export interface SessionShare {
  /** The shared record (fence 0 and no tokens when none was written). */
  read(): Promise<SharedSessionRecord>;
  /**
   * Runs `fn` holding the group's sign-in lock, with a fencing token greater than every earlier
   * one. The lock lapses if its holder dies, so a crashed process never blocks the group for long.
   */
  withLock<T>(
    fn: (fence: number) => Promise<T>,
    options?: {
      /** The caller's signal: a wait for the lock it aborts rejects with its reason. */
      readonly signal?: AbortSignal;
      /** The caller's deadline (monotonic ms, performance.now()): the wait for the lock ends by then. */
      readonly deadlineAt?: number;
    },
  ): Promise<T>;
  /** Stores the update if `fence` is still the newest issued; false (nothing written) when a newer holder took over. */
  write(
    update: { readonly tokens?: Readonly<SessionTokens>; readonly coolDownMs?: number },
    fence: number,
  ): Promise<boolean>;
}

/** Identifies a shared session: one environment and one sign-in identity. */
export interface SessionKey {
  /** Origin and path of the client's base address. */
  readonly environment: string;
  /** The username signed in with, or a label of the session given (never a secret). */
  readonly identity: string;
}

/** The `coordinator` option. */
export interface Coordinator {
  /** The partner's slots, pace and 429 cool-down. */
  partner(key: PartnerKey): PartnerCoordination;
  /** The group's session; absent: each client keeps its own (with its `tokenStore`, if any). */
  session?(key: SessionKey): SessionShare;
}
