/**
 * The Redis coordinator's own numbers, in one place. None comes from the API
 * specification; each is the client's choice, with its reason.
 */
export const REDIS_DEFAULTS = Object.freeze({
  /** A command not answered in this long counts as Redis being away (no offline queue: calls must not hang). */
  commandTimeoutMs: 250,
  /** A slot lease lapses this long after its last renewal: a crashed process's slots are free within it (5 s). */
  leaseMs: 5_000,
  /** A process not seen for this long no longer counts among the partner's live processes. */
  liveMs: 10_000,
  /** While every slot is taken, the call at the head of a process's line asks again about this often (jittered ±50 %). */
  pollMs: 20,
  /** While Redis is away, it is asked again this often. */
  probeMs: 1_000,
  /** Shared state no process touched for this long is dropped (a partner gone quiet starts afresh). */
  stateTtlMs: 3_600_000,
  /** The sign-in lock lapses this long after its last renewal (a crashed holder blocks the group no longer). */
  lockMs: 10_000,
  /** A process waits this long at most for the sign-in lock. */
  lockWaitMs: 30_000,
});

export interface RedisSettings {
  readonly processId: string;
  readonly leaseMs: number;
  readonly liveMs: number;
  readonly pollMs: number;
  readonly probeMs: number;
  readonly stateTtlMs: number;
  readonly lockMs: number;
  readonly lockWaitMs: number;
  readonly failClosed: boolean;
  readonly onUnavailable: ((error: Error) => void) | undefined;
  readonly onRestored: (() => void) | undefined;
}
