/**
 * The group's sign-in lock with its fencing token, as every shared session store takes it: asked
 * for until free (jittered polls) or until the caller's deadline or the store's own wait runs out,
 * renewed a third of its lease while held (a holder that stalls loses it, and its fence with it),
 * given back when the work ends. Written once for the Redis and Durable Object session shares;
 * each gives its store's three steps.
 */
import { sleep } from "../internal/sleep.ts";

/** One store's lock steps. */
export interface LockSteps {
  /** Takes the lock: the new fence, or 0 when another holds it. */
  lock(): Promise<number>;
  /** Extends the lock while `fence` still holds it (failures are ignored). */
  renew(fence: number): Promise<unknown>;
  /** Gives the lock back if `fence` still holds it (failures are ignored). */
  unlock(fence: number): Promise<unknown>;
}

/** The lock's timings, in ms. */
export interface LockTiming {
  /** The lock lapses this long after its last renewal. */
  readonly lockMs: number;
  /** The longest wait for the lock. */
  readonly lockWaitMs: number;
  /** The mean time between two asks while another holds it (each jittered ±50 %). */
  readonly pollMs: number;
}

export async function withFencedLock<T>(
  steps: LockSteps,
  timing: LockTiming,
  fn: (fence: number) => Promise<T>,
  options?: { readonly signal?: AbortSignal; readonly deadlineAt?: number },
): Promise<T> {
  const signal = options?.signal;
  const own = performance.now() + timing.lockWaitMs;
  const byCaller = options?.deadlineAt !== undefined && options.deadlineAt < own;
  const giveUpAt = byCaller ? (options?.deadlineAt as number) : own;
  let fence = 0;
  for (;;) {
    signal?.throwIfAborted();
    if (performance.now() > giveUpAt)
      throw new Error(
        byCaller
          ? "the session lock was not free by the call's deadline"
          : `the session lock was not free within ${timing.lockWaitMs} ms`,
      );
    fence = await steps.lock();
    if (fence > 0) break;
    const left = giveUpAt - performance.now();
    await sleep(Math.max(1, Math.min(left, timing.pollMs * (0.5 + Math.random()))), signal);
  }
  const renew = setInterval(() => {
    steps.renew(fence).catch(() => undefined);
  }, timing.lockMs / 3);
  (renew as { unref?: () => void }).unref?.();
  try {
    return await fn(fence);
  } finally {
    clearInterval(renew);
    await steps.unlock(fence).catch(() => undefined);
  }
}
