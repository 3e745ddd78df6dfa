/**
 * `createAudienceClient`: options normalized once, then the client object over its engine
 * (engine.ts: the session, the transport, openapi-fetch's typed methods over the merged
 * description, and the one path every call takes, validated before it is sent).
 */

import { type AudienceClient, METHODS, type PublicConfig, type RawClient } from "./client-types.ts";
import { createEngine, type InternalSeams } from "./engine.ts";
import { ValidationError } from "./errors/validation-error.ts";
import { pathParamIssues } from "./guards/path-params.ts";
import {
  type AudienceClientOptions,
  type ClientConfig,
  normalizeCredentials,
  normalizeOptions,
  normalizeSessionTokens,
} from "./options.ts";
import type { SetupProcess } from "./workflows/setup-process-types.ts";

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
  const setupHandles = new Map<string, SetupProcess>();
  const call = (method: string, path: string, init: Record<string, unknown> | undefined): Promise<unknown> =>
    engine.call(method, path, init);
  const raw = Object.fromEntries(
    METHODS.map((m) => [m, (path: string, init?: Record<string, unknown>) => call(m, path, init)]),
  ) as unknown as Pick<RawClient, (typeof METHODS)[number]>;
  const client: AudienceClient = {
    ...raw,
    request: ((method: string, path: string, init?: Record<string, unknown>) =>
      call(method.toUpperCase(), path, init)) as RawClient["request"],
    use: (...m) => engine.use(...m),
    eject: (...m) => engine.eject(...m),
    config: publicConfig(config),
    partnerId: () => engine.partnerId(),
    sessionStats: () => engine.sessionStats(),
    rateState: () => engine.rateState(),
    concurrency: () => engine.concurrency(),
    useCredentials: (credentials) =>
      engine.useCredentials(normalizeCredentials(credentials, config.dangerouslyAllowBrowser)),
    useSession: (tokens) => engine.useSession(normalizeSessionTokens(tokens, config.dangerouslyAllowBrowser)),
    hasSentClientCampaignStatus: (eid) => engine.hasSentClientCampaignStatus(eid),
    setupProcess(eid) {
      const issues = pathParamIssues({ eid }, ["eid"]);
      if (issues.length) throw new ValidationError(issues.map((i) => ({ ...i, field: "eid" })));
      let handle = setupHandles.get(eid);
      if (!handle) handle = engine.setupProcess(eid);
      setupHandles.set(eid, handle);
      return handle;
    },
  };
  const engine = createEngine(config, client, seams);
  return client;
}

function publicConfig(config: ClientConfig): PublicConfig {
  const { credentials: _c, session: _s, tokenStore: _t, ...rest } = config;
  return Object.freeze(rest);
}
