/**
 * The client's transport: the policy list below is the architecture of the request path.
 * openapi-fetch calls the result once per logical request; every policy here holds on every
 * attempt (current token, partner header, concurrency slot).
 */
import type { OperationInfo } from "../../generated/operations.ts";
import type { PartnerCoordination, PartnerKey } from "../coordination/coordinator.ts";
import { attachRecord, type CallRecord } from "../internal/call-record.ts";
import { callSignal } from "../internal/call-signal.ts";
import { monotonicNow } from "../internal/clock.ts";
import type { OperationMatcher } from "../internal/operation-index.ts";
import type { Redactor } from "../internal/redact.ts";
import type { ServerClock } from "../internal/server-clock.ts";
import { CLIENT_DEFAULTS, SPEC } from "../limits.ts";
import type { ClientConfig, Logger } from "../options.ts";
import type { Session } from "../session/session.ts";
import { credentialsPolicy, PARTNER_HEADER, sessionPolicy } from "./auth-policy.ts";
import { authSecretsPolicy } from "./auth-secrets-policy.ts";
import { clockPolicy } from "./clock-policy.ts";
import { AttemptFailure } from "./failure.ts";
import { fetchTerminal } from "./fetch-terminal.ts";
import { limiterPolicy } from "./limiter-policy.ts";
import { logPolicy } from "./log-policy.ts";
import type { ClientMetrics } from "./metrics-policy.ts";
import { OutgoingRequest, toOutgoing } from "./outgoing.ts";
import { localCoordinator } from "./partner-state.ts";
import { type CallContext, compose, firstAttempt, type Policy } from "./policy.ts";
import { type RateState, RateStateWatch, rateStateOf } from "./rate-state.ts";
import { redirectPolicy } from "./redirect-policy.ts";
import { type RetryDeps, retryPolicy } from "./retry-policy.ts";
import { timeoutPolicy } from "./timeout-policy.ts";
import { traceAttemptPolicy, traceCallPolicy } from "./trace-policy.ts";
import { writeChecks } from "./write-checks.ts";

export interface TransportDeps {
  readonly config: ClientConfig;
  readonly redactor: Redactor;
  /** The caller's logger, redacted and unable to throw (internal/observed-logger.ts). */
  readonly logger: Logger;
  readonly match: OperationMatcher;
  readonly session: () => Session;
  /** The metrics policies, when the `meter` option is given. */
  readonly metrics?: ClientMetrics | undefined;
  /** The server's clock, learned from every response's Date. */
  readonly clock: ServerClock;
  /** Told of a described operation's 2xx that could not be read as JSON (drift, option `onDrift`). */
  readonly onUnparsed?: ((op: OperationInfo, response: Response) => void) | undefined;
  /** Test seams: randomness, clock and sleep of the retry policy. */
  readonly retryHooks?: Pick<RetryDeps, "random" | "now" | "sleep">;
}

export interface Transport {
  (request: Request | OutgoingRequest): Promise<Response>;
  /** The partner's shared state (its slots, pace and cool-down: the `coordinator` option). */
  readonly partnerFor: (partnerId: string | undefined) => PartnerCoordination;
  /** The partner's rate state now. */
  readonly rateState: (partnerId: string | undefined) => RateState;
}

const UNAUTHENTICATED = /^\/(auth(\/.*)?|status\/)$/;
/** The /auth family: sign-in and refresh carry the password or the refresh token in their body. */
const CARRIES_SECRET = /^\/auth(\/|$)/;

export function createTransport(deps: TransportDeps): Transport {
  const { config, redactor, logger } = deps;
  // The partner's slots and pace: in the process by default, shared with every client configured
  // alike; across processes with a `coordinator`.
  const coordinator = config.coordinator ?? localCoordinator;
  const environment = `${config.baseUrl.origin}${config.baseUrl.pathname}`;
  const partners = new Map<string | undefined, PartnerCoordination>();
  const partnerFor = (partnerId: string | undefined): PartnerCoordination => {
    let partner = partners.get(partnerId);
    if (!partner) {
      const key: PartnerKey = {
        environment,
        partnerId,
        maxConcurrency: config.maxConcurrency,
        reducedConcurrency: SPEC.reducedConcurrency,
        quietMs: config.rateLimitQuietPeriodMs,
        pacing: config.ratePacing,
      };
      partner = coordinator.partner(key);
      partners.set(partnerId, partner);
    }
    return partner;
  };
  const rateState = (partnerId: string | undefined): RateState =>
    rateStateOf(partnerId, partnerFor(partnerId).load(), deps.clock);
  const onRateStateChange = config.onRateStateChange;
  const watch = onRateStateChange
    ? new RateStateWatch(onRateStateChange, (message, error) =>
        logger.warn?.(message, { error: error instanceof Error ? error.name : typeof error }),
      )
    : undefined;
  const watchRate = (w: RateStateWatch, partnerId: string | undefined): void =>
    w.check(
      partnerId ?? "",
      () => rateState(partnerId),
      () => partnerFor(partnerId).load().quietLeftMs,
    );
  const origins = [config.baseUrl.origin, config.mediaUrl.origin];

  const authorizer = (): Session => deps.session();
  const logging = logger.debug || logger.warn;
  const metrics = deps.metrics;
  const policies: Policy[] = [
    ...(logging ? [logPolicy(logger)] : []),
    ...(config.tracer ? [traceCallPolicy({ tracer: config.tracer, redactor })] : []),
    ...(metrics ? [metrics.call] : []),
    retryPolicy({
      config,
      logger,
      redactor,
      reauthenticate: (token) => deps.session().reauthenticate(token),
      writeCheck: writeChecks((request) => transport(request)),
      now: () => deps.clock.now(), // an HTTP-date Retry-After means server time
      ...deps.retryHooks,
    }),
    sessionPolicy(authorizer),
    limiterPolicy({
      partnerFor,
      serverNow: () => deps.clock.now(),
      onResponse: watch && ((partnerId) => watchRate(watch, partnerId)),
    }),
    credentialsPolicy(authorizer),
    ...(config.tracer ? [traceAttemptPolicy({ tracer: config.tracer, redactor })] : []),
    ...(metrics ? [metrics.attempt] : []),
    timeoutPolicy(config.timeoutMs),
    clockPolicy(deps.clock),
    redirectPolicy(origins, CLIENT_DEFAULTS.maxRedirects),
    authSecretsPolicy(redactor),
  ];
  const run = compose(policies, fetchTerminal(config.fetch, config.Request, config.maxResponseBytes, deps.onUnparsed));
  // A typed call names its operation; it is trusted when the URL is under that operation's base.
  const prefixes = { main: `${trimSlash(config.baseUrl.href)}/`, media: `${trimSlash(config.mediaUrl.href)}/` };

  const transport = async (input: Request | OutgoingRequest): Promise<Response> => {
    const out =
      input instanceof OutgoingRequest && !(input.body instanceof ReadableStream) ? input : await toOutgoing(input);
    const { url, method, headers, body } = out;
    // A call aborted before it starts sends nothing, not even a sign-in.
    if (out.signal?.aborted) throw out.signal.reason;
    const call = out.audienceCall;
    let op: OperationInfo | undefined;
    let authenticated: boolean;
    let path: string;
    let secretBody: boolean;
    if (call && url.startsWith(prefixes[call.op.host]) && method === call.op.method) {
      op = call.op;
      authenticated = op.auth;
      path = op.path;
      secretBody = CARRIES_SECRET.test(op.path);
    } else {
      const parsed = new URL(url);
      op = deps.match(method, parsed)?.op;
      const relative = parsed.pathname.slice(config.baseUrl.pathname.length);
      authenticated = op ? op.auth : origins.includes(parsed.origin) && !UNAUTHENTICATED.test(relative);
      path = op ? op.path : redactor.text(parsed.pathname);
      secretBody = CARRIES_SECRET.test(op ? op.path : relative);
    }
    const startedAt = monotonicNow();
    // The earlier of the client's per-call deadline and a helper's deadline spanning its calls.
    const own = config.retry.deadlineMs === undefined ? undefined : startedAt + config.retry.deadlineMs;
    const given = out.audienceDeadlineAt;
    const deadlineAt = own === undefined ? given : given === undefined ? own : Math.min(own, given);
    const deadlineMs = deadlineAt === undefined ? undefined : Math.max(0, deadlineAt - startedAt);
    const scope = callSignal(
      out.signal ?? undefined,
      deadlineMs,
      () => new AttemptFailure("deadline", true, `the call's deadline of ${Math.round(deadlineMs ?? 0)} ms passed`),
    );
    const ctx: CallContext = {
      url,
      method,
      headers,
      body,
      op,
      call: op === call?.op ? call : undefined,
      authenticated,
      secretBody,
      expectJson: out.audienceExpectJson,
      lane: out.priority === "low" ? "background" : "interactive",
      passThrough: out.passThrough,
      fetch: out.audienceFetch,
      requestClass: out.audienceRequest,
      signal: scope?.signal,
      startedAt,
      deadlineAt,
      path,
      attempt: 0,
      tokenUsed: undefined,
      partnerId: undefined,
      retryAfterMs: undefined,
      mayHaveSucceeded: false,
      record(requestId?: string): CallRecord {
        const shown = new Headers(headers);
        if (ctx.authenticated) {
          shown.set("Authorization", "Bearer [REDACTED]");
          if (ctx.partnerId) shown.set(PARTNER_HEADER, ctx.partnerId);
        } else {
          shown.delete("Authorization");
        }
        return {
          method,
          path,
          environment,
          partnerId: ctx.partnerId ?? deps.session().partnerId,
          request: { method, url: redactor.text(url), headers: redactor.headers(shown) },
          attempts: ctx.attempt,
          retryAfterMs: ctx.retryAfterMs,
          mayHaveSucceeded: ctx.mayHaveSucceeded,
          writeCheckNote: ctx.writeCheckNote,
          unrenewable: ctx.unrenewable,
          retryAt: ctx.retryAt,
          rateState: ctx.rateState,
          requestId: requestId === undefined ? undefined : redactor.text(requestId),
        };
      },
    };
    try {
      const response = await run(firstAttempt(ctx), ctx);
      // A call that ends on a 429 keeps the partner's rate state of that moment for its error.
      if (response.status === 429) ctx.rateState = rateState(ctx.partnerId);
      // Only an error is built from the record (errorFromResponse, unwrap): a 2xx needs none.
      if (!response.ok)
        attachRecord(response, () => ctx.record(response.headers.get("x-request-id") ?? undefined), redactor);
      return response;
    } finally {
      scope?.dispose();
    }
  };
  return Object.assign(transport, { partnerFor, rateState });
}

const trimSlash = (s: string): string => (s.endsWith("/") ? s.slice(0, -1) : s);
