/**
 * One listener per AbortSignal, however many calls follow it, and none once the last of them is
 * done. A caller who shares one signal between 50 calls would otherwise get 50 listeners on it,
 * and Node warns past 10 (MaxListenersExceededWarning); adding and removing a listener of an
 * EventTarget also walks its list, which is quadratic for many calls sharing one signal (aborting
 * 100 000 queued calls). A long-lived signal (an app-wide shutdown signal) must not keep a
 * listener of ours after its calls settle: openai-node's and ky's suites check for none.
 *
 * The followers are kept on the signal under a module-private symbol: one follower as itself, more
 * in a set. No WeakMap for them: its entries cost the garbage collector extra work per signal, and a
 * call that brings its own signal is the common case. A signal that cannot take a property (frozen
 * or sealed: kept in a deep-frozen app state, or hardened under SES) is the exception: its
 * followers are kept in a WeakMap. The listener (one closure per signal) is removed when the last
 * follower leaves and added again when a new one comes: each is one add or remove on a list that
 * holds only it.
 */

/** Told once when the signal it follows aborts (a class instance costs no closure per follower). */
export interface AbortFollower {
  aborted(): void;
}

/** The followers of one signal, and its one listener (made once, removed and added again). */
interface Followers {
  current: AbortFollower | Set<AbortFollower> | null;
  readonly listener: () => void;
}

const FOLLOWERS = Symbol("audience-client abort followers");
/** The followers of signals that cannot take a property. */
const heldApart = new WeakMap<AbortSignal, Followers>();

const followersOf = (signal: AbortSignal): Followers | undefined =>
  (signal as AbortSignal & { [FOLLOWERS]?: Followers })[FOLLOWERS] ?? heldApart.get(signal);

/** `follower.aborted()` runs once when `signal` aborts, unless {@link unfollow} comes first. */
export function follow(signal: AbortSignal, follower: AbortFollower): void {
  let followers = followersOf(signal);
  if (!followers) {
    const made: Followers = { current: null, listener: () => fire(made) };
    if (Object.isExtensible(signal)) Object.defineProperty(signal, FOLLOWERS, { value: made, configurable: true });
    else heldApart.set(signal, made);
    followers = made;
  }
  const current = followers.current;
  if (current === null) {
    try {
      signal.addEventListener("abort", followers.listener, { once: true });
    } catch {
      // A runtime that keeps a signal's listeners on the signal itself cannot add one to a frozen
      // signal (Node 24), nor abort it: there is nothing to follow.
      return;
    }
    followers.current = follower;
  } else if (current instanceof Set) {
    current.add(follower);
  } else {
    followers.current = new Set([current, follower]);
  }
}

/** Stops `follower` following `signal`: O(1); the last one to leave removes the listener. */
export function unfollow(signal: AbortSignal, follower: AbortFollower): void {
  const followers = followersOf(signal);
  const current = followers?.current;
  const last = current === follower || (current instanceof Set && current.delete(follower) && current.size === 0);
  if (!followers || !last) return;
  followers.current = null;
  signal.removeEventListener("abort", followers.listener);
}

function fire(followers: Followers): void {
  const current = followers.current;
  followers.current = null;
  if (current instanceof Set) for (const f of current) f.aborted();
  else current?.aborted();
}

/** Runs `fn` once when `signal` aborts; returns the function that stops following it. */
export function onAbort(signal: AbortSignal, fn: () => void): () => void {
  const follower: AbortFollower = { aborted: fn };
  follow(signal, follower);
  return () => unfollow(signal, follower);
}
