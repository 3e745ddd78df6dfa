/**
 * One listener per AbortSignal, however many calls follow it, and none once the last of them is
 * done. A caller who shares one signal between 50 calls would otherwise get 50 listeners on it,
 * and Node warns past 10 (MaxListenersExceededWarning); adding and removing a listener of an
 * EventTarget also walks its list, which is quadratic for many calls sharing one signal (aborting
 * 100 000 queued calls). A long-lived signal (an app-wide shutdown signal) must not keep a
 * listener of ours after its calls settle: openai-node's and ky's suites check for none.
 *
 * The followers are kept on the signal under a module-private symbol: one follower as itself, more
 * in a set. No WeakMap: its entries cost the garbage collector extra work per signal, and a call
 * that brings its own signal is the common case. The listener (one closure per signal) is removed
 * when the last follower leaves and added again when a new one comes: each is one add or remove on
 * a list that holds only it.
 */

/** Told once when the signal it follows aborts (a class instance costs no closure per follower). */
export interface AbortFollower {
  aborted(): void;
}

const FOLLOWERS = Symbol("audience-client abort followers");
const LISTENER = Symbol("audience-client abort listener");

type Followed = AbortSignal & {
  [FOLLOWERS]?: AbortFollower | Set<AbortFollower> | null;
  /** The signal's one listener, made once per signal and kept to be removed and added again. */
  [LISTENER]?: () => void;
};

/** `follower.aborted()` runs once when `signal` aborts, unless {@link unfollow} comes first. */
export function follow(signal: AbortSignal, follower: AbortFollower): void {
  const s = signal as Followed;
  const current = s[FOLLOWERS];
  if (current === undefined) {
    const listener = (): void => fire(s);
    Object.defineProperty(s, FOLLOWERS, { value: follower, writable: true, configurable: true });
    Object.defineProperty(s, LISTENER, { value: listener, configurable: true });
    signal.addEventListener("abort", listener, { once: true });
  } else if (current === null) {
    s[FOLLOWERS] = follower;
    signal.addEventListener("abort", s[LISTENER] as () => void, { once: true });
  } else if (current instanceof Set) {
    current.add(follower);
  } else {
    s[FOLLOWERS] = new Set([current, follower]);
  }
}

/** Stops `follower` following `signal`: O(1); the last one to leave removes the listener. */
export function unfollow(signal: AbortSignal, follower: AbortFollower): void {
  const s = signal as Followed;
  const current = s[FOLLOWERS];
  const last = current === follower || (current instanceof Set && current.delete(follower) && current.size === 0);
  if (!last) return;
  s[FOLLOWERS] = null;
  signal.removeEventListener("abort", s[LISTENER] as () => void);
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
