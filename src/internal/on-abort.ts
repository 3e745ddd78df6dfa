/**
 * One listener per AbortSignal, however many calls follow it. A caller who shares one signal
 * between 50 calls would otherwise get 50 listeners on it, and Node warns past 10
 * (MaxListenersExceededWarning). The first follower registers the only listener; each follower is
 * a function in a set, removed when its call ends.
 */
const followers = new WeakMap<AbortSignal, Set<() => void>>();

/** Runs `fn` once when `signal` aborts; returns the function that stops following it. */
export function onAbort(signal: AbortSignal, fn: () => void): () => void {
  let set = followers.get(signal);
  if (!set) {
    const created = new Set<() => void>();
    set = created;
    followers.set(signal, created);
    signal.addEventListener(
      "abort",
      () => {
        for (const f of [...created]) f();
        created.clear();
      },
      { once: true },
    );
  }
  set.add(fn);
  const own = set;
  return () => void own.delete(fn);
}
