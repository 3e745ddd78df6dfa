/**
 * The client's engine: everything a call needs that `createAudienceClient` does not need at
 * creation — the session, the transport (the policy pipeline), openapi-fetch over the merged
 * description, the request guards, the setup-state hooks and `call()`, the one path every call of
 * the client takes. create-client.ts builds the client around it.
 */

import createClient, { type Middleware } from "openapi-fetch";
import type { OperationInfo } from "../generated/operations.ts";
import type { AudienceClient, CallHooks, CallParams, HookedCall } from "./client-types.ts";
import type { SessionShare, Turn, TurnRequest } from "./coordination/coordinator.ts";
import { DriftWatch } from "./drift/drift-watch.ts";
import { ValidationError } from "./errors/validation-error.ts";
import { jsonBodyIssues } from "./guards/json-body.ts";
import { partnerTokenPathIssues } from "./guards/partner-token-paths.ts";
import { rawPathIssues } from "./guards/raw-path.ts";
import { pageLimitIssues } from "./guards/request-rules.ts";
import { headerIssues, queryIssues } from "./guards/request-values.ts";
import { validateRequest } from "./guards/validate-request.ts";
import { clientRedactor } from "./internal/client-redactor.ts";
import { observedLogger } from "./internal/observed-logger.ts";
import { createOperationMatcher, operationOf } from "./internal/operation-index.ts";
import { serializeQuery } from "./internal/query-serializer.ts";
import { ServerClock } from "./internal/server-clock.ts";
import { CLIENT_DEFAULTS } from "./limits.ts";
import type { ClientConfig } from "./options.ts";
import type { RateState } from "./rate-state.ts";
import { Session } from "./session/session.ts";
import type { SessionTokens } from "./session/tokens.ts";
import { createTransport, type Transport } from "./transport/create-transport.ts";
import { lazyMetrics } from "./transport/lazy-metrics.ts";
import { type AdmittedTurn, type CallInfo, OutgoingRequest } from "./transport/outgoing.ts";
import { openapiRequestClass } from "./transport/send-attempt.ts";
import type { ClientPaths } from "./types.ts";
import { createSetupProcess } from "./workflows/setup-process.ts";
import type { SetupProcess } from "./workflows/setup-process-types.ts";
import { SetupStates } from "./workflows/setup-state.ts";
import { StatusTaskStarts } from "./workflows/status-tasks.ts";

/** Internal seams for tests (randomness, clock, sleep of the retry policy). Not public API. */
export interface InternalSeams {
  retryHooks?: Parameters<typeof createTransport>[0]["retryHooks"];
  /** The draws of `onDrift`'s sampling (default Math.random). */
  driftRandom?: () => number;
  /** Autosave debounce (Section 3: 1 s). */
  autosaveDebounceMs?: number;
  /** Hooks around every call, after the client's own (tests of how a throwing hook is contained). */
  hooks?: readonly CallHooks[];
}

/** What the client object delegates to: its calls and the state behind its synchronous methods. */
export interface Engine {
  /** One call of the client (`client.GET(...)`, `client.request(...)`). */
  call(method: string, path: string, init: Record<string, unknown> | undefined): Promise<unknown>;
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
  hasSentClientCampaignStatus(eid: string): boolean;
  /** A new handle for `eid` (create-client.ts keeps one per eid). */
  /** A new handle; `onBusy` is told when it starts and stops having edits to save. */
  setupProcess(eid: string, onBusy?: (busy: boolean) => void): SetupProcess;
}

/**
 * The engine of one client: `client` is the object its setup handles call through; `share` is the
 * group's session, asked of the coordinator when the client was created.
 */
export function createEngine(
  config: ClientConfig,
  client: AudienceClient,
  seams: InternalSeams,
  share: SessionShare | undefined,
): Engine {
  // Token expiry and HTTP-date Retry-After are judged in the server's time.
  const clock = new ServerClock();
  const redactor = clientRedactor(config.timeoutMs, clock);
  const logger = observedLogger(config.logger, redactor);
  const match = createOperationMatcher({ main: config.baseUrl, media: config.mediaUrl });
  let session: Session | undefined;
  const metrics = config.meter ? lazyMetrics(config.meter, config.baseUrl) : undefined;
  const drift = config.onDrift
    ? new DriftWatch({
        onDrift: config.onDrift,
        sampleRate: config.driftSampleRate,
        redactor,
        ...(seams.driftRandom ? { random: seams.driftRandom } : {}),
        warn: (message, error) => logger.warn?.(message, { error: error instanceof Error ? error.name : typeof error }),
      })
    : undefined;
  const transport: Transport = createTransport({
    config,
    redactor,
    logger,
    match,
    session: () => session as Session,
    clock,
    metrics,
    onUnparsed: drift && ((op, response) => drift.observe(op, response, undefined, false)),
    ...(seams.retryHooks ? { retryHooks: seams.retryHooks } : {}),
  });
  const own = new Session({
    config,
    redactor,
    logger,
    send: transport,
    share,
    now: () => clock.now(),
    serverTimeKnown: () => clock.known,
    ...(metrics ? { observe: metrics.sessionEvent } : {}),
    ...(drift
      ? {
          inspect: (path: string, response: Response, body: unknown) => {
            const op = operationOf("POST", path);
            if (op) drift.observe(op, response, body, true);
          },
        }
      : {}),
  });
  session = own;
  const api = createClient<ClientPaths>({
    Request: OutgoingRequest as unknown as typeof Request,
    baseUrl: config.baseUrl.href,
    fetch: transport as (request: Request) => Promise<Response>,
    querySerializer: serializeQuery,
    ...(config.headers ? { headers: config.headers } : {}),
  });
  const setupStates = new SetupStates();
  const statusTasks = new StatusTaskStarts();
  const hooks: CallHooks[] = [setupStates.hooks(), statusTasks.hooks(), ...(seams.hooks ?? [])];

  // Middlewares registered with use(): while there are none, openapi-fetch builds OutgoingRequests.
  // Never counted down by eject(): a middleware may be registered twice and ejected once, and after
  // an eject the real-Request path is only slower, never wrong.
  let middlewares = 0;

  /**
   * One call, in its steps: `prepare` (the checks that refuse bad input before anything is sent, and
   * the setup-state guards), `admit` (the partner's turn), `send` (openapi-fetch and the transport,
   * then the result's redaction, drift and observers). Between the steps only the call's own data
   * passes; a call waiting for its turn holds its arguments and nothing built for sending.
   */
  function call(method: string, path: string, init: Record<string, unknown> | undefined): Promise<unknown> {
    try {
      const prepared = prepare(method, path, init);
      return prepared instanceof Promise ? prepared.then(admitAndSend) : admitAndSend(prepared);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  function admitAndSend(call: PreparedCall): Promise<unknown> {
    const partnerId = admissionFor(call);
    if (partnerId === undefined) return send(call, undefined);
    let pending: Turn | Promise<Turn>;
    try {
      pending = transport.partnerFor(partnerId).turn(call); // the call is its own TurnRequest
    } catch {
      return send(call, undefined); // left to the transport's limiter step, which reports it
    }
    if (!(pending instanceof Promise)) return send(call, { partnerId, turn: pending });
    const admitted = (turn: Turn) => send(call, { partnerId, turn });
    // The process's own limiter refuses a turn only for the caller's abort (no deadline here): that
    // rejection goes to the caller as it is, with no handler of ours (a handler that throws costs
    // ~2 µs per call: aborting 100 000 queued calls). A coordinator of the user's may
    // fail otherwise (Redis away with failClosed): that failure is left to the transport's limiter
    // step, which retries and reports it as it always does.
    if (!config.coordinator) return pending.then(admitted);
    return pending.then(admitted, (error: unknown) => {
      if (call.signal?.aborted) throw error;
      return send(call, undefined);
    });
  }

  /** The checks before anything is sent; a promise only while the request schemas load (first call). */
  function prepare(
    method: string,
    path: string,
    init: Record<string, unknown> | undefined,
  ): PreparedCall | Promise<PreparedCall> {
    const op = operationOf(method, path);
    // Paths outside the description are not validated below, so the path itself is checked first,
    // and the page cap, which holds for every bulk read (Section 8.5).
    if (!op) {
      // The body too: validateRequest below never sees it (a deep one overflowed JSON.stringify).
      const pathIssues = [...rawPathIssues(path), ...jsonBodyIssues(init?.body, CLIENT_DEFAULTS.maxJsonBodyDepth)];
      if (!pathIssues.length) pathIssues.push(...partnerTokenPathIssues(path));
      if (pathIssues.length)
        throw new ValidationError(pathIssues, {
          method,
          expected: "a path of the API and a JSON body; nothing was sent",
        });
      const limitIssues = pageLimitIssues((init?.params as CallParams | undefined)?.query, config.maxPageLimit);
      if (limitIssues.length)
        throw new ValidationError(limitIssues, { method, expected: "valid input; nothing was sent" });
    }
    const given = init ?? {};
    const params = given.params as CallParams | undefined;
    if (params?.query !== undefined || params?.header !== undefined || given.headers !== undefined) {
      const valueIssues = [
        ...queryIssues(params?.query),
        ...headerIssues(params?.header, "header"),
        ...headerIssues(given.headers, "headers"),
      ];
      if (valueIssues.length)
        throw new ValidationError(valueIssues, { method, path, expected: "valid input; nothing was sent" });
    }
    const signal = given.signal as AbortSignal | undefined;
    const lane = given.priority === "low" ? "background" : "interactive";
    if (!op) return { method, path, init: given, op, params, body: given.body, signal, lane, deadlineAt: undefined };
    const prepared: PreparedCall = {
      method,
      path,
      init: given,
      op,
      params: withDefaults(op, params, config),
      body: given.body,
      signal,
      lane,
      deadlineAt: undefined,
    };
    const validating = validateRequest(prepared as HookedCall, config.maxPageLimit);
    if (!validating) return guarded(prepared);
    return validating.then(() => guarded(prepared)); // the first call loads the schemas (a lazily loaded chunk)
  }

  /** The setup-state guards (SetupStateError before anything is sent). */
  function guarded(call: PreparedCall): PreparedCall {
    for (const h of hooks) h.before?.(call as HookedCall);
    return call;
  }

  /**
   * The partner whose turn the call takes before anything is built for it (a waiting call
   * holds its arguments only), when the session knows the partner; before the first sign-in, calls
   * wait in the transport's limiter step, as retries do. Undefined too when that step must take it:
   * a user's middleware sees the call first (openapi-fetch's order), or a deadline governs the wait
   * (the transport's TooLate and timers).
   */
  function admissionFor(call: PreparedCall): string | undefined {
    const { init } = call;
    if (!call.op?.auth || middlewares > 0 || Array.isArray(init.middleware)) return undefined;
    if (init.audienceDeadlineAt !== undefined || config.retry.deadlineMs !== undefined) return undefined;
    if (call.signal?.aborted) return undefined;
    return session?.current()?.partnerId;
  }

  async function send(call: PreparedCall, admitted: AdmittedTurn | undefined): Promise<unknown> {
    const { method, path, op } = call;
    const hooked = op ? (call as HookedCall) : undefined;
    let next = call.init;
    // A user's middleware (the client's, or the call's own) sees the call as openapi-fetch shows it.
    const withMiddleware = middlewares > 0 || (Array.isArray(next.middleware) && next.middleware.length > 0);
    let info: CallInfo | undefined;
    if (op) {
      // The transport parses a 2xx JSON body once, into `info`; openapi-fetch leaves it alone
      // unless a middleware sees the call (its `options.parseAs` is the caller's).
      const parseJson = next.parseAs === undefined || next.parseAs === "json";
      info = {
        op,
        parseJson,
        admitted,
        ...(next.transportRetries === false ? { transportRetries: false as const } : {}),
      };
      next = {
        ...next,
        params: call.params,
        audienceCall: info,
        parseAs: parseJson && !withMiddleware ? "stream" : next.parseAs,
      };
      if (op.host === "media" && next.baseUrl === undefined) next = { ...next, baseUrl: config.mediaUrl.href };
    }
    // A path outside the description: the caller's parseAs still says whether a 2xx must be JSON.
    if (!op && next.parseAs !== undefined && next.parseAs !== "json") next = { ...next, audienceExpectJson: false };
    if (withMiddleware && info) info.keepBody = true;
    // A middleware is handed real Requests of the caller's class, and can read the body of a
    // response in onResponse; without one, openapi-fetch builds the client's OutgoingRequest
    // (transport/send-attempt.ts; undefined is openapi-fetch's default). The call's own class and
    // `fetch` go on to the transport: a call's own `fetch` is its transport, not a bypass: the
    // client's steps (token, partner, retries, limits, redaction) end in it.
    if (withMiddleware || next.Request || next.fetch) {
      const callClass = next.Request as typeof Request | undefined;
      next = {
        ...next,
        Request: openapiRequestClass(withMiddleware, callClass, config.Request),
        audienceRequest: callClass,
        fetch: undefined,
        audienceFetch: next.fetch,
      };
    }
    let result: CallResult;
    try {
      result = await (api.request as (m: string, p: string, i: unknown) => Promise<CallResult>)(method, path, next);
    } finally {
      // A turn taken at admission that no attempt used (the call failed before its first attempt).
      info?.admitted?.turn.done({ kind: "no-response" });
    }
    if (info?.parseJson && result.response.ok && "data" in result) {
      result.data = info.parsedFrom === result.response ? info.data : await readJson(result.data);
    }
    // The raw `{ error }` is what callers log: it is redacted like every error the client builds.
    // Drift: checked after the result is in hand, in the background; a body is checked
    // only when it was read as JSON (the caller's parseAs).
    if (drift && op) {
      const asJson = info?.parseJson ?? true;
      drift.observe(op, result.response, result.response.ok ? result.data : result.error, asJson);
    }
    if (result.error !== undefined) result.error = redactor.value(result.error);
    if (hooked) {
      for (const h of hooks) {
        try {
          h.after?.(hooked, result);
        } catch (error) {
          // An observer never changes the outcome: a completed write stays completed.
          logger.warn?.("an after-hook threw; the call's result is returned as it is", {
            method,
            path,
            error: error instanceof Error ? error.name : typeof error,
          });
        }
      }
    }
    return result;
  }

  return {
    call,
    use: (...m) => {
      middlewares += m.length;
      api.use(...m);
    },
    eject: (...m) => api.eject(...m),
    partnerId: () => own.partnerId,
    sessionStats: () => ({ ...own.stats }),
    rateState: () => transport.rateState(own.partnerId),
    concurrency: () => {
      const load = transport.partnerFor(own.partnerId).load();
      return {
        limit: load.concurrencyLimit,
        active: load.inFlight,
        queued: load.queued.interactive + load.queued.background,
      };
    },
    useCredentials: (credentials) => own.useCredentials(credentials),
    useSession: (tokens) => own.useSession(tokens),
    hasSentClientCampaignStatus: (eid) => statusTasks.has(eid),
    setupProcess: (eid, onBusy) => createSetupProcess(client, setupStates, eid, seams.autosaveDebounceMs, onBusy),
  };
}

type CallResult = { data?: unknown; error?: unknown; response: Response };

/**
 * The JSON body of a 2xx the transport did not parse itself (it came from a write check or a
 * user's middleware): read from the stream openapi-fetch handed back.
 */
async function readJson(data: unknown): Promise<unknown> {
  if (!(data instanceof ReadableStream)) return data;
  const text = await new Response(data).text();
  return text ? JSON.parse(text) : undefined;
}

function withDefaults(op: OperationInfo, params: CallParams | undefined, config: ClientConfig): CallParams | undefined {
  if (!op.pathParams.includes("adplatform") || !config.adPlatform || params?.path?.adplatform !== undefined)
    return params;
  return { ...params, path: { ...params?.path, adplatform: config.adPlatform } };
}

/**
 * A call that passed the checks: what it was given and, for a described operation, its row and
 * parameters with defaults filled (the hooks' {@link HookedCall}). It is also the request for the
 * partner's turn at admission (no deadline there): a waiting call holds this one object.
 */
interface PreparedCall extends TurnRequest {
  readonly method: string;
  readonly path: string;
  readonly init: Record<string, unknown>;
  readonly op: OperationInfo | undefined;
  readonly params: CallParams | undefined;
  readonly body: unknown;
}
