/**
 * `createAudienceClient`: options normalized and checked at once (a bad option throws here), then
 * the client object over its engine (engine.ts: the session, the transport, openapi-fetch's typed
 * methods over the merged description, and the one path every call takes).
 *
 * The engine is loaded lazily (what a browser app loads up front): its `import()` starts
 * when the first client is created, and a call made before it has loaded waits for it. Once the
 * module is in the process, every client builds its engine at once, so nothing waits twice. Until
 * then the client's synchronous methods answer from what cannot have changed, since nothing can
 * have been sent (the idle rate state, no sign-in, the partner of the options); what they are asked
 * to change (`useCredentials`, `useSession`, `use`, `eject`) is replayed in order on the engine.
 * (The coordinators of this package keep a partner's state in the process until a call is made;
 * a coordinator of the user's own is first asked for its partner once the engine has loaded.)
 */

import { type AudienceClient, METHODS, type PublicConfig, type RawClient } from "./client-types.ts";
import type { SessionShare } from "./coordination/coordinator.ts";
import type { Engine, InternalSeams } from "./engine.ts";
import { ValidationError } from "./errors/validation-error.ts";
import { pathParamIssues } from "./guards/path-params.ts";
import {
  type AudienceClientOptions,
  type ClientConfig,
  normalizeCredentials,
  normalizeOptions,
  normalizeSessionTokens,
} from "./options.ts";
import type { RateState } from "./rate-state.ts";
import type { SetupProcess } from "./workflows/setup-process-types.ts";

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

/**
 * Creates a client. Nothing is sent until the first call; sign-in is lazy and happens once.
 *
 * @example
 * const client = createAudienceClient({ baseUrl: "https://<host>/api/v3", credentials: { username, password } });
 * const { data, error } = await client.GET("/events/{eid}", { params: { path: { eid } } });
 */
export function createAudienceClient(options: AudienceClientOptions): AudienceClient {
  return createClientWithSeams(options, {});
}

/** {@link createAudienceClient} with the test seams; not exported from any entry point. */
export function createClientWithSeams(options: AudienceClientOptions, seams: InternalSeams): AudienceClient {
  const config = normalizeOptions(options);
  // Asked now, as every other option: a coordinator that refuses throws from createAudienceClient.
  const share = sharedSession(config);
  let engine: Engine | undefined;
  /** Why the engine could not be built (a call rejects with it; the sync methods stay idle). */
  let broken: { error: unknown } | undefined;
  /** What the client was asked to change before its engine was built, in order. */
  const queued: ((engine: Engine) => void)[] = [];
  const setupHandles = new HandleCache();
  /** The handles given out before the engine was built, each waiting for its real handle. */
  const waitingHandles: ((engine: Engine) => void)[] = [];

  const build = (module: EngineModule): Engine => {
    if (engine) return engine;
    if (broken) throw broken.error;
    let built: Engine;
    try {
      built = module.createEngine(config, client, seams, share);
    } catch (error) {
      broken = { error };
      throw error;
    }
    engine = built;
    for (const apply of queued.splice(0)) apply(built);
    for (const attach of waitingHandles.splice(0)) attach(built);
    return built;
  };
  /** The engine when its module is loaded (built now if this client has not built it yet). */
  const current = (): Engine | undefined => {
    if (engine || !loaded || broken) return engine;
    try {
      return build(loaded);
    } catch {
      return undefined; // a call reports it
    }
  };
  const ready = (): Promise<Engine> => loadEngine().then(build);
  const whenBuilt = (apply: (engine: Engine) => void): void => {
    const now = current();
    if (now) apply(now);
    else queued.push(apply);
  };

  const line = inOrder(ready);
  /** Runs `work` on the engine: at once when it is built and nothing asked before still waits for it. */
  const onEngine = <T>(work: (engine: Engine) => T): T | Promise<Awaited<T>> => {
    const now = current();
    return line(now !== undefined, () => work(engine as Engine));
  };
  const call = (method: string, path: string, init: Record<string, unknown> | undefined): Promise<unknown> =>
    onEngine((built) => built.call(method, path, init));
  const raw = Object.fromEntries(
    METHODS.map((m) => [m, (path: string, init?: Record<string, unknown>) => call(m, path, init)]),
  ) as unknown as Pick<RawClient, (typeof METHODS)[number]>;
  const client: AudienceClient = {
    ...raw,
    request: ((method: string, path: string, init?: Record<string, unknown>) =>
      call(method.toUpperCase(), path, init)) as RawClient["request"],
    use: (...m) => whenBuilt((built) => built.use(...m)),
    eject: (...m) => whenBuilt((built) => built.eject(...m)),
    config: publicConfig(config),
    partnerId: () => {
      const now = current();
      return now ? now.partnerId() : config.partnerId;
    },
    sessionStats: () => current()?.sessionStats() ?? { signIns: 0, refreshes: 0 },
    rateState: () => current()?.rateState() ?? idleRateState(config),
    concurrency: () => current()?.concurrency() ?? { limit: config.maxConcurrency, active: 0, queued: 0 },
    useCredentials: (credentials) => {
      const checked = normalizeCredentials(credentials, config.dangerouslyAllowBrowser);
      whenBuilt((built) => built.useCredentials(checked));
    },
    useSession: (tokens) => {
      const checked = normalizeSessionTokens(tokens, config.dangerouslyAllowBrowser);
      whenBuilt((built) => built.useSession(checked));
    },
    hasSentClientCampaignStatus: (eid) => current()?.hasSentClientCampaignStatus(eid) ?? false,
    setupProcess(eid) {
      const issues = pathParamIssues({ eid }, ["eid"]);
      if (issues.length) throw new ValidationError(issues.map((i) => ({ ...i, field: "eid" })));
      const known = setupHandles.get(eid);
      if (known) return known;
      let handle: SetupProcess;
      const onBusy = (busy: boolean): void => setupHandles.busy(handle, busy);
      const now = current();
      if (now) handle = now.setupProcess(eid, onBusy);
      else {
        const waiting = waitingHandle(eid, onEngine, onBusy);
        waitingHandles.push(waiting.attach);
        handle = waiting.handle;
      }
      setupHandles.set(eid, handle);
      return handle;
    },
  };
  // The engine's import starts now; a call waits for it (and reports its failure, if any).
  if (loaded) build(loaded);
  else ready().catch(() => {});
  return client;
}

function publicConfig(config: ClientConfig): PublicConfig {
  // Headers may carry a caller's secret (a proxy's key): not shown, as credentials are not.
  const { credentials: _c, session: _s, tokenStore: _t, headers: _h, ...rest } = config;
  return Object.freeze(rest);
}

/** The rate state of a client that cannot have sent anything yet (its engine is not loaded). */
function idleRateState(config: ClientConfig): RateState {
  return {
    partnerId: config.partnerId,
    inFlight: 0,
    queued: { interactive: 0, background: 0 },
    concurrencyLimit: config.maxConcurrency,
    pace: null,
    coolDownUntil: null,
    clockSkewMs: 0,
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

/**
 * A setup handle given out before the engine was built: the object `eid` finds while the caller
 * holds it or it has work (HandleCache), whose methods run on the real handle, in the order they
 * were called, once the engine is built. Its state is "unknown" until then: nothing can have been observed.
 */
function waitingHandle(
  eid: string,
  onEngine: <T>(work: (engine: Engine) => T) => T | Promise<Awaited<T>>,
  onBusy: (busy: boolean) => void,
): { handle: SetupProcess; attach: (engine: Engine) => void } {
  let real: SetupProcess | undefined;
  const later =
    <K extends Exclude<keyof SetupProcess, "eid" | "state">>(method: K, quiet = false) =>
    (...args: Parameters<SetupProcess[K]>): ReturnType<SetupProcess[K]> => {
      type Method = (...a: typeof args) => ReturnType<SetupProcess[K]>;
      // The engine attaches `real` when it is built, before any waiting work runs.
      const done = onEngine(() => ((real as SetupProcess)[method] as Method)(...args)) as ReturnType<SetupProcess[K]>;
      // As the real autosaves: ignoring their promise is safe.
      if (quiet) done.catch(() => {});
      return done;
    };
  const handle: SetupProcess = {
    eid,
    get state() {
      return real?.state ?? "unknown";
    },
    load: later("load"),
    create: later("create"),
    update: later("update"),
    autosave: later("autosave", true),
    flush: later("flush"),
    publish: later("publish"),
    cancel: later("cancel"),
    editPublishedCluster: later("editPublishedCluster"),
    autosavePublishedCluster: later("autosavePublishedCluster", true),
  };
  return {
    handle,
    attach: (engine) => {
      real = engine.setupProcess(eid, onBusy);
    },
  };
}

/**
 * The client's `setupProcess` handles, one per eid (its queue orders that setup's edits): held
 * weakly, so a handle the caller dropped is released (they were kept for ever, ~2.1 KB
 * per eid), but strongly while it has edits waiting, in flight or kept after a failure, so asking
 * again for its eid finds the same queue. Without WeakRef (very old runtimes) every handle is kept.
 */
class HandleCache {
  readonly #weak = new Map<string, WeakRef<SetupProcess> | SetupProcess>();
  readonly #busy = new Set<SetupProcess>();
  readonly #forget =
    typeof FinalizationRegistry === "function"
      ? new FinalizationRegistry<string>((eid) => {
          const held = this.#weak.get(eid);
          if (held instanceof WeakRef && held.deref() === undefined) this.#weak.delete(eid);
        })
      : undefined;

  get(eid: string): SetupProcess | undefined {
    const held = this.#weak.get(eid);
    return typeof WeakRef === "function" && held instanceof WeakRef ? held.deref() : (held as SetupProcess | undefined);
  }

  set(eid: string, handle: SetupProcess): void {
    this.#weak.set(eid, typeof WeakRef === "function" ? new WeakRef(handle) : handle);
    this.#forget?.register(handle, eid);
  }

  busy(handle: SetupProcess, busy: boolean): void {
    if (busy) this.#busy.add(handle);
    else this.#busy.delete(handle);
  }
}

/**
 * The group's shared session, when the coordinator shares one and the client signs in with
 * credentials: one session per environment and username. A client given only tokens
 * keeps its own.
 */
function sharedSession(config: ClientConfig): SessionShare | undefined {
  const { coordinator, credentials, baseUrl } = config;
  if (!coordinator?.session || !credentials) return undefined;
  return coordinator.session({ environment: `${baseUrl.origin}${baseUrl.pathname}`, identity: credentials.username });
}
