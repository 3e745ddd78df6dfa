/**
 * The Durable Object coordinator's own numbers, in one place. None comes from the API
 * specification; each is the client's choice, with its reason (the lease, live and lock times are
 * the Redis coordinator's, src/redis/settings.ts, so both behave alike).
 */
export const DURABLE_OBJECT_DEFAULTS = Object.freeze({
  /** A slot lease lapses this long after its last renewal: an isolate that dies mid-call frees its slot within it. */
  leaseMs: 5_000,
  /** An isolate not heard from for this long no longer counts among the partner's live isolates (fair shares). */
  liveMs: 10_000,
  /**
   * The object holds a turn that must wait (every slot taken, or the pace) at most this long before
   * it answers "ask again": a waiting call costs one request, not one per poll.
   */
  holdMs: 2_000,
  /** An object not answering within this long, beyond the time it may hold a turn, counts as away. */
  answerMs: 1_000,
  /**
   * A finished call's slot is given back with the isolate's next request, or on its own after this
   * long (at once when the object said others wait, or after a 429): one request per call while busy.
   */
  releaseDelayMs: 25,
  /** While the object is away, it is asked again this often (sooner at first). */
  probeMs: 1_000,
  /** The sign-in lock lapses this long after its last renewal (a dead holder blocks the group no longer). */
  lockMs: 10_000,
  /** An isolate waits this long at most for the sign-in lock. */
  lockWaitMs: 30_000,
  /** While another isolate holds the sign-in lock, it is asked for again about this often (jittered). */
  lockPollMs: 40,
});

/** The timings of {@link DURABLE_OBJECT_DEFAULTS} that can be changed, in ms. */
export type DurableObjectTiming = {
  readonly [K in keyof typeof DURABLE_OBJECT_DEFAULTS]?: number;
};

/** The coordinator's settings, normalized once. */
export interface ObjectSettings {
  readonly leaseMs: number;
  readonly liveMs: number;
  readonly holdMs: number;
  readonly answerMs: number;
  readonly releaseDelayMs: number;
  readonly probeMs: number;
  readonly lockMs: number;
  readonly lockWaitMs: number;
  readonly lockPollMs: number;
  /** This isolate's id: its leases and its place among the partner's live isolates. */
  readonly isolateId: string;
  /** A new lease id, unique in this isolate. */
  readonly nextLeaseId: () => string;
  readonly failClosed: boolean;
  readonly warn: (message: string, details?: Record<string, unknown>) => void;
  readonly info: (message: string, details?: Record<string, unknown>) => void;
  readonly onUnavailable: ((error: Error) => void) | undefined;
  readonly onRestored: (() => void) | undefined;
}
