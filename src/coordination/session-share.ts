/**
 * Where the processes of one partner group share their session (issue 13): the tokens one process
 * obtained, and a lock so that one of them signs in or refreshes while the others wait and adopt.
 */
import type { StoredSession } from "../session/token-store.ts";

/** The shared record as read. */
export interface SharedSessionRecord {
  /** The group's tokens, once one process has signed in. Secrets. */
  readonly tokens?: StoredSession;
  /** Ms left of the group's /auth cool-down (a sign-in or refresh failed with 429/5xx), when one runs. */
  readonly coolDownMs?: number;
  /** The fencing token of the write that stored this record (0 before any). */
  readonly fence: number;
}

export interface SessionShare {
  /** The shared record (fence 0 and no tokens when none was written). */
  read(): Promise<SharedSessionRecord>;
  /**
   * Runs `fn` holding the group's sign-in lock, with a fencing token greater than every earlier one.
   * The lock lapses after `leaseMs` if its holder dies, so a crashed process never blocks the group
   * for longer than that; waits for the lock at most `waitMs`, then rejects with an Error.
   */
  withLock<T>(fn: (fence: number) => Promise<T>, options?: { readonly signal?: AbortSignal }): Promise<T>;
  /** Stores the update if `fence` is still the newest one issued; false (nothing written) when a newer holder took over. */
  write(update: { readonly tokens?: StoredSession; readonly coolDownMs?: number }, fence: number): Promise<boolean>;
}
