/**
 * Code loaded on first use, so what a browser app loads up front stays small: the client's engine
 * (lazy-engine.ts) and a setup handle's work (workflows/setup-handle.ts). Work asked before its
 * module has loaded waits for it, in the order it was asked.
 */

/** A module imported once per process, on first use. */
export interface LazyModule<M> {
  /** The module once loaded; undefined before. */
  current(): M | undefined;
  /** Starts (or joins) the import; a failed import is tried again by the next caller. */
  load(): Promise<M>;
}

/** `importer` is the `import()` itself (written where it is called, so a bundler can split there). */
export function lazyModule<M>(importer: () => Promise<M>): LazyModule<M> {
  let loaded: M | undefined;
  let loading: Promise<M> | undefined;
  return {
    current: () => loaded,
    load: () => {
      loading ??= importer().then(
        (module) => {
          loaded = module;
          return module;
        },
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
  };
}

/**
 * Starts work in the order it was asked for: at once while `now` and nothing asked before waits,
 * else once `ready` has resolved and the work asked before has started (not finished: an autosave
 * asked later may still supersede an earlier one, as on a loaded client). A failed `ready` fails
 * the work that waited for it; the next work tries again.
 */
export function inOrder(ready: () => Promise<unknown>) {
  /** Resolves when the latest waiting work may start (its own work runs first: it was attached first). */
  let last: Promise<void> | undefined;
  let waiting = 0;
  return <T>(now: boolean, work: () => T): T | Promise<Awaited<T>> => {
    if (now && waiting === 0) return work();
    waiting += 1;
    const turn: Promise<void> = (last ?? ready()).then(
      () => {
        waiting -= 1;
      },
      (error: unknown) => {
        waiting -= 1;
        if (last === turn) last = undefined;
        throw error;
      },
    );
    last = turn;
    return turn.then(work) as Promise<Awaited<T>>;
  };
}
