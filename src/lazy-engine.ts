/**
 * The engine of a client, loaded lazily (what a browser app loads up front stays small): its
 * `import()` starts when the first client is created, and work asked of a client before its
 * engine is built waits for it, in the order it was asked. Once the module is in the process,
 * every client builds its engine at once, so nothing waits twice.
 */

import type { Engine } from "./engine.ts";

type EngineModule = typeof import("./engine.ts");

/** The engine module, once loaded in this process. */
let loaded: EngineModule | undefined;
let loading: Promise<EngineModule> | undefined;

/** Starts (or joins) the engine's import; a failed import is tried again by the next caller. */
function loadEngine(): Promise<EngineModule> {
  loading ??= import("./engine.ts").then(
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
}

/** One client's engine, built from the module once it is loaded. */
export interface LazyEngine {
  /** The engine when its module is loaded (built now if it was not yet); undefined before, or if it cannot be built. */
  current(): Engine | undefined;
  /** Runs `work` on the engine: at once when it is built and nothing asked before still waits for it. */
  onEngine<T>(work: (engine: Engine) => T): T | Promise<Awaited<T>>;
  /** Applies a change to the engine: at once when it is built, else when it is (changes keep their order). */
  whenBuilt(apply: (engine: Engine) => void): void;
  /** Builds the engine now if its module is loaded, else starts the import (a call reports its failure). */
  start(): void;
}

/**
 * The client's engine, built with `create` once `start()` is called and the module is loaded. A
 * failed build is kept: every call rejects with it and the synchronous methods stay idle.
 */
export function lazyEngine(create: (module: EngineModule) => Engine): LazyEngine {
  let engine: Engine | undefined;
  let broken: { error: unknown } | undefined;
  /** What the client was asked to change before its engine was built, in order. */
  const queued: ((engine: Engine) => void)[] = [];
  const build = (module: EngineModule): Engine => {
    if (engine) return engine;
    if (broken) throw broken.error;
    try {
      engine = create(module);
    } catch (error) {
      broken = { error };
      throw error;
    }
    for (const apply of queued.splice(0)) apply(engine);
    return engine;
  };
  const current = (): Engine | undefined => {
    if (engine || !loaded || broken) return engine;
    try {
      return build(loaded);
    } catch {
      return undefined; // a call reports it
    }
  };
  const ready = (): Promise<Engine> => loadEngine().then(build);
  const line = inOrder(ready);
  return {
    current,
    onEngine: (work) => line(current() !== undefined, () => work(engine as Engine)),
    whenBuilt: (apply) => {
      const now = current();
      if (now) apply(now);
      else queued.push(apply);
    },
    start: () => {
      if (loaded) build(loaded);
      else ready().catch(() => {});
    },
  };
}

/**
 * Starts work in the order it was asked for: at once while `now` and nothing asked before waits,
 * else once `ready` has resolved and the work asked before has started (not finished: an autosave
 * asked later may still supersede an earlier one, as on a loaded client). A failed `ready` fails
 * the work that waited for it; the next work tries again.
 */
function inOrder(ready: () => Promise<unknown>) {
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
