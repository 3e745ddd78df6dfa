/**
 * The client's engine: everything a call needs that `createAudienceClient` does not need at
 * creation, loaded lazily (lazy-engine.ts). It only wires: the parts (engine-parts.ts: session,
 * transport, redaction, drift), openapi-fetch over the merged description, the setup-state hooks,
 * and the three steps of src/call/ every call of the client takes. create-client.ts builds the
 * client around it.
 */

import createClient, { type Middleware } from "openapi-fetch";
import { createAdmit } from "./call/admit.ts";
import { createEntry } from "./call/entry.ts";
import { createPrepare } from "./call/prepare.ts";
import { createSend } from "./call/send.ts";
import type { CallHooks } from "./client-types.ts";
import type { SessionShare } from "./coordination/coordinator.ts";
import { createParts, type PartSeams } from "./engine-parts.ts";
import { environmentOf, inClient } from "./errors/client-context.ts";
import { serializeQuery } from "./internal/query-serializer.ts";
import type { ClientConfig } from "./options.ts";
import type { RateState } from "./rate-state.ts";
import type { HeldAccessToken, SessionTokens } from "./session/tokens.ts";
import { OutgoingRequest } from "./transport/outgoing.ts";
import type { ClientPaths } from "./types.ts";
import { setupGuards } from "./workflows/setup-guards.ts";
import type { SetupStates } from "./workflows/setup-state.ts";

import { StatusTaskStarts } from "./workflows/status-tasks.ts";

// A setup handle's work comes with the engine's code (workflows/setup-handle.ts), not its engine.
export { createSetupWork } from "./workflows/setup-process.ts";

/** Internal seams for tests (randomness, clock, sleep of the retry policy). Not public API. */
export interface InternalSeams extends PartSeams {
  /** Autosave debounce (Section 3: 1 s). */
  autosaveDebounceMs?: number;
  /** Hooks around every call, after the client's own (tests of how a throwing hook is contained). */
  hooks?: readonly CallHooks[];
}

/** What the client object delegates to: its calls and the state behind its synchronous methods. */
export interface Engine {
  /** One call of the client (`client.GET(...)`, `client.request(...)`). */
  /** `askedAt`: when the caller made the call (monotonic ms), before any wait for code to load. */
  call(method: string, path: string, init: Record<string, unknown> | undefined, askedAt?: number): Promise<unknown>;
  use(...middleware: Middleware[]): void;
  eject(...middleware: Middleware[]): void;
  partnerId(): string | undefined;
  sessionStats(): { signIns: number; refreshes: number };
  rateState(): RateState;
  concurrency(): { limit: number; active: number; queued: number };
  /** Credentials already checked (options.ts `normalizeCredentials`). */
  useCredentials(credentials: ClientConfig["credentials"] & object): void;
  /** Tokens already checked (options.ts `normalizeSessionTokens`). */
  useSession(tokens: Readonly<SessionTokens>): void;
  accessToken(): Promise<HeldAccessToken>;
  hasSentClientCampaignStatus(eid: string): boolean;
}

/**
 * The engine of one client: `share` is the group's session, asked of the coordinator when the
 * client was created; `setupStates` what the client has observed of its setups, which the guards
 * of every call read and keep (the client's setup handles read it too). It wires the parts; a
 * call runs through the steps of call/: prepare (the checks before anything is sent), admit (the
 * partner's turn), send (openapi-fetch and the transport).
 */
export function createEngine(
  config: ClientConfig,
  seams: InternalSeams,
  share: SessionShare | undefined,
  setupStates: SetupStates,
): Engine {
  const { redactor, logger, drift, transport, session } = createParts(config, seams, share);
  const api = createClient<ClientPaths>({
    Request: OutgoingRequest as unknown as typeof Request,
    baseUrl: config.baseUrl.href,
    querySerializer: serializeQuery,
    ...(config.headers ? { headers: config.headers } : {}),
  });
  const statusTasks = new StatusTaskStarts();
  const hooks: CallHooks[] = [setupGuards(setupStates), statusTasks.hooks(), ...(seams.hooks ?? [])];
  // Middlewares registered with use(): while there are none, openapi-fetch builds OutgoingRequests.
  // Never counted down by eject(): a middleware may be registered twice and ejected once, and after
  // an eject the real-Request path is only slower, never wrong.
  let middlewares = 0;
  const environment = environmentOf(config.baseUrl);
  const prepare = createPrepare({ ...config, hooks, middlewares: () => middlewares > 0 });
  const send = createSend({
    api,
    transport,
    mediaUrl: config.mediaUrl,
    requestClass: config.Request,
    redactor,
    logger,
    drift,
    hooks,
  });
  const admit = createAdmit(
    {
      partnerFor: transport.partnerFor,
      partnerId: () => session.current()?.partnerId,
      deadlineMs: config.retry.deadlineMs,
      userCoordinator: config.coordinator !== undefined,
    },
    send,
  );
  const call = createEntry({
    prepare,
    admit,
    deadlineMs: config.retry.deadlineMs,
    inClient: (error) => inClient(error, { partnerId: session.partnerId, environment }),
  });
  return {
    call,
    use: (...m) => {
      middlewares += m.length;
      api.use(...m);
    },
    eject: (...m) => api.eject(...m),
    partnerId: () => session.partnerId,
    sessionStats: () => ({ ...session.stats }),
    rateState: () => transport.rateState(session.partnerId),
    concurrency: () => {
      const load = transport.partnerFor(session.partnerId).load();
      return {
        limit: load.concurrencyLimit,
        active: load.inFlight,
        queued: load.queued.interactive + load.queued.background,
      };
    },
    useCredentials: (credentials) => session.useCredentials(credentials),
    useSession: (tokens) => session.useSession(tokens),
    accessToken: () => session.accessToken(),
    hasSentClientCampaignStatus: (eid) => statusTasks.has(eid),
  };
}
