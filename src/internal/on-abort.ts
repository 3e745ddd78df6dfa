/**
 * One listener per AbortSignal, however many calls follow it. A caller who shares one signal
 * between 50 calls would otherwise get 50 listeners on it, and Node warns past 10
 * (MaxListenersExceededWarning); adding and removing a listener of an EventTarget also walks its
 * list, which is quadratic for many calls sharing one signal (issue 18: aborting queued calls).
 *
 * The followers are kept on the signal under a module-private symbol: one follower as itself, more
 * in a set. No WeakMap: its entries cost the garbage collector extra work per signal, and a call
 * that brings its own signal is the common case.
 */

/** Told once when the signal it follows aborts (a class instance costs no closure per follower). */
export interface AbortFollower {
  aborted(): void;
}

const FOLLOWERS = Symbol("audience-client abort followers");

type Followed = AbortSignal & { [FOLLOWERS]?: AbortFollower | Set<AbortFollower> | null };

/** `follower.aborted()` runs once when `signal` aborts, unless {@link unfollow} comes first. */
export function follow(signal: AbortSignal, follower: AbortFollower): void {
  const s = signal as Followed;
  const current = s[FOLLOWERS];
  if (current === undefined) {
    // The signal's only listener, registered once: it finds the followers when the signal aborts.
    Object.defineProperty(s, FOLLOWERS, { value: follower, writable: true, configurable: true });
    signal.addEventListener("abort", () => fire(s), { once: true });
  } else if (current === null) {
    s[FOLLOWERS] = follower;
  } else if (current instanceof Set) {
    current.add(follower);
  } else {
    s[FOLLOWERS] = new Set([current, follower]);
  }
}

/** Stops `follower` following `signal`: O(1). */
export function unfollow(signal: AbortSignal, follower: AbortFollower): void {
  const s = signal as Followed;
  const current = s[FOLLOWERS];
  if (current === follower) s[FOLLOWERS] = null;
  else if (current instanceof Set) current.delete(follower);
}

function fire(signal: Followed): void {
  const current = signal[FOLLOWERS];
  signal[FOLLOWERS] = null;
  if (current instanceof Set) for (const f of current) f.aborted();
  else current?.aborted();
}

/** Runs `fn` once when `signal` aborts; returns the function that stops following it. */
export function onAbort(signal: AbortSignal, fn: () => void): () => void {
  const follower: AbortFollower = { aborted: fn };
  follow(signal, follower);
  return () => unfollow(signal, follower);
}
