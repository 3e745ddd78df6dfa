/**
 * `createAudienceClient`: options normalized and checked at once (a bad option throws here), then
 * the client object over its engine (engine.ts: the session, the transport, openapi-fetch's typed
 * methods over the merged description, and the one path every call takes).
 *
 * The engine is loaded lazily (lazy-engine.ts), and a call made before it has loaded waits for it.
 * Until then the client's synchronous methods answer from what cannot have changed, since nothing
 * can have been sent (the idle rate state, no sign-in, the partner of the options); what they are
 * asked to change (`useCredentials`, `useSession`, `use`, `eject`) is replayed in order on the
 * engine. A setup handle (workflows/setup-handle.ts) is the client's from the start: its work
 * runs through the client's own calls.
 * (The coordinators of this package keep a partner's state in the process until a call is made;
 * a coordinator of the user's own is first asked for its partner once the engine has loaded.)
 */

import { type AudienceClient, METHODS, type PublicConfig, type RawClient } from "./client-types.ts";
import type { SessionShare } from "./coordination/coordinator.ts";
import type { InternalSeams } from "./engine.ts";
import { environmentOf, inClient } from "./errors/client-context.ts";
import { ValidationError } from "./errors/validation-error.ts";
import { isMiddleware, NOT_MIDDLEWARE } from "./guards/middleware.ts";
import { monotonicNow } from "./internal/clock.ts";
import { engineModule, lazyEngine } from "./lazy-engine.ts";
import {
  type AudienceClientOptions,
  type ClientConfig,
  normalizeCredentials,
  normalizeOptions,
  normalizeSessionTokens,
} from "./options.ts";
import type { RateState } from "./rate-state.ts";
import { setupHandle } from "./workflows/setup-handle.ts";
import { setupHandles } from "./workflows/setup-handles.ts";
import type { SetupProcess } from "./workflows/setup-process-types.ts";
import { SetupStates } from "./workflows/setup-state.ts";

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
  // What the client observes of each setup: its handles read it, its engine's guards keep it.
  const setupStates = new SetupStates();
  const engine = lazyEngine((module) => module.createEngine(config, seams, share, setupStates));
  const { current, onEngine, whenBuilt } = engine;
  // The moment the caller made the call: its deadline counts from here, a wait for the engine's
  // load included (call/after-load.ts).
  const call = (method: string, path: string, init: Record<string, unknown> | undefined): Promise<unknown> => {
    const askedAt = monotonicNow();
    return onEngine((built) => built.call(method, path, init, askedAt));
  };

  const raw = Object.fromEntries(
    METHODS.map((m) => [m, (path: string, init?: Record<string, unknown>) => call(m, path, init)]),
  ) as unknown as Pick<RawClient, (typeof METHODS)[number]>;
  const handles = setupHandles((eid, onBusy) =>
    setupHandle(eid, setupStates, engineModule, (module) =>
      module.createSetupWork(client, eid, seams.autosaveDebounceMs, onBusy),
    ),
  );
  const setupProcess = (eid: string): SetupProcess => {
    try {
      return handles(eid);
    } catch (error) {
      throw inClient(error, { partnerId: client.partnerId(), environment: environmentOf(config.baseUrl) });
    }
  };
  const client: AudienceClient = {
    ...raw,
    request: ((method: string, path: string, init?: Record<string, unknown>) =>
      call(typeof method === "string" ? method.toUpperCase() : method, path, init)) as RawClient["request"],
    use: (...m) => {
      // Checked now: a middleware refused only once the engine is built would be lost with those after it.
      if (m.some((x) => x && !isMiddleware(x)))
        throw new ValidationError([{ field: "middleware", message: NOT_MIDDLEWARE }]);
      whenBuilt((built) => built.use(...m));
    },
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
    accessToken: () => onEngine((built) => built.accessToken()),
    hasSentClientCampaignStatus: (eid) => current()?.hasSentClientCampaignStatus(eid) ?? false,
    setupProcess,
  };
  // The engine's import starts now; a call waits for it (and reports its failure, if any).
  engine.start();
  return client;
}

function publicConfig(config: ClientConfig): PublicConfig {
  // Headers may carry a caller's secret (a proxy's key): not shown, as credentials are not.
  const { credentials: _c, session: _s, sessionProvider: _p, tokenStore: _t, headers: _h, ...rest } = config;
  // Copies: a URL cannot be frozen, and the client's own would take an app's edit of it (a link
  // built in place) as where to sign in, the password included.
  return Object.freeze({ ...rest, baseUrl: new URL(rest.baseUrl), mediaUrl: new URL(rest.mediaUrl) });
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
 * The group's shared session, when the coordinator shares one and the client signs in with
 * credentials: one session per environment and username. A client given only tokens
 * keeps its own.
 */
function sharedSession(config: ClientConfig): SessionShare | undefined {
  const { coordinator, credentials, baseUrl } = config;
  if (!coordinator?.session || !credentials) return undefined;
  return coordinator.session({ environment: `${baseUrl.origin}${baseUrl.pathname}`, identity: credentials.username });
}
