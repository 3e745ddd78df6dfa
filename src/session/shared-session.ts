/**
 * Sign-in and refresh shared by a partner's processes, loaded only when the
 * `coordinator` option shares a session (never in a browser bundle's first chunk).
 *
 * Both run under the group's lock. Under the lock the record is read again: tokens another process
 * stored since (newer than ours, not the one a 401 refused, not expired) are adopted and nothing is
 * sent; a cool-down another process started is honoured. Else the work runs, and what it stores is
 * written to the share with the lock's fence before the lock is released. When the share does not
 * answer, the process goes on alone: a shared store never fails a call.
 */
import type { SessionShare, SharedSessionRecord } from "../coordination/coordinator.ts";
import type { SessionTokens } from "./tokens.ts";

/** What the session lends the shared part. */
export interface ShareHost {
  /** Adopts the record's tokens when they are worth it (`expiredToo`: even expired ones); true when adopted. */
  adopt(record: SharedSessionRecord, expiredToo: boolean): boolean;
  /** Another process of the group was turned away by /auth: wait as long. */
  coolDown(ms: number): void;
  /** Whether `error` is a sign-in's or refresh's own failure (the call's), not the share's. */
  isCallError(error: unknown): boolean;
  /** Reports a failure of the share by its kind only. */
  warn(message: string, error: unknown): void;
}

const ALONE = "the shared session did not answer; this process signs in or refreshes alone";

export class SharedSession {
  readonly #share: SessionShare;
  readonly #host: ShareHost;
  #fence: number | undefined;
  readonly #writes: Array<Promise<unknown>> = [];

  constructor(share: SessionShare, host: ShareHost) {
    this.#share = share;
    this.#host = host;
  }

  /** The first session of this process: the group's (even expired: renewing it is a refresh, not a sign-in), else `alone` under the lock. */
  async establish(alone: () => Promise<void>): Promise<void> {
    let record: SharedSessionRecord;
    try {
      record = await this.#share.read();
    } catch (error) {
      this.#host.warn(ALONE, error);
      return alone();
    }
    if (this.#host.adopt(record, true)) return;
    return this.#underLock(alone, true);
  }

  /** A refresh (or a sign-in after a refused refresh token) for the group. */
  renew(work: () => Promise<void>): Promise<void> {
    return this.#underLock(work, false);
  }

  /** Stores what a sign-in or refresh under the lock produced, or the cool-down it started. */
  write(update: { readonly tokens?: SessionTokens; readonly coolDownMs?: number }): void {
    const fence = this.#fence;
    if (fence === undefined) return;
    this.#writes.push(
      this.#share.write(update, fence).then(
        (written) => {
          if (!written)
            this.#host.warn("the shared session refused a write: another process took the lock over", undefined);
        },
        (error: unknown) => this.#host.warn("the shared session did not store a write", error),
      ),
    );
  }

  async #underLock(work: () => Promise<void>, expiredToo: boolean): Promise<void> {
    let ran = false;
    try {
      await this.#share.withLock(async (fence) => {
        const record = await this.#share.read();
        if (this.#host.adopt(record, expiredToo)) return;
        const cool = record.coolDownMs;
        if (cool !== undefined && cool > 0) this.#host.coolDown(cool);
        this.#fence = fence;
        ran = true;
        try {
          await work();
        } finally {
          this.#fence = undefined;
          await Promise.allSettled(this.#writes.splice(0));
        }
      });
    } catch (error) {
      // A sign-in's or refresh's own failure is the call's; the share's failure is not.
      if (ran || this.#host.isCallError(error)) throw error;
      this.#host.warn(ALONE, error);
      await work();
    }
  }
}
