/**
 * The engine of a client, loaded lazily (what a browser app loads up front stays small): its
 * `import()` starts when the first client is created, and work asked of a client before its
 * engine is built waits for it, in the order it was asked. Once the module is in the process,
 * every client builds its engine at once, so nothing waits twice.
 */

import type { Engine } from "./engine.ts";
import { inOrder, lazyModule } from "./internal/lazy-module.ts";

type EngineModule = typeof import("./engine.ts");

/** The client's lazily loaded code: the engine, and the work of its setup handles. */
export const engineModule = lazyModule<EngineModule>(() => import("./engine.ts"));

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
    const loaded = engineModule.current();
    if (engine || !loaded || broken) return engine;
    try {
      return build(loaded);
    } catch {
      return undefined; // a call reports it
    }
  };
  const ready = (): Promise<Engine> => engineModule.load().then(build);
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
      const loaded = engineModule.current();
      if (loaded) build(loaded);
      else ready().catch(() => {});
    },
  };
}
