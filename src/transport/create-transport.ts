/**
 * The client's transport: the policy list below is the architecture of the request path. The
 * engine's send step (call/send.ts) hands it each logical call, the request openapi-fetch built
 * with the call's value beside it; the session and the write checks hand it their own requests.
 * Every policy holds on every attempt (current token, partner header, concurrency slot).
 */
import type { OperationInfo } from "../../generated/operations.ts";
import type { Call } from "../call/call.ts";
import type { CallRecord } from "../internal/call-record.ts";
import { abortReason } from "../internal/call-signal.ts";
import { warnOf } from "../internal/observed-logger.ts";
import type { OperationMatcher } from "../internal/operation-index.ts";
import type { Redactor } from "../internal/redact.ts";
import type { ServerClock } from "../internal/server-clock.ts";
import { CLIENT_DEFAULTS } from "../limits.ts";
import type { ClientConfig, Logger } from "../options.ts";
import type { Session } from "../session/session.ts";
import { credentialsPolicy, sessionPolicy } from "./auth-policy.ts";
import { authSecretsPolicy } from "./auth-secrets-policy.ts";
import { contextFactory } from "./call-context.ts";
import { clockPolicy } from "./clock-policy.ts";
import { fetchTerminal } from "./fetch-terminal.ts";
import { lazyRedirect } from "./lazy-redirect.ts";
import { lazyTrace } from "./lazy-trace.ts";
import { lazyWriteChecks } from "./lazy-write-checks.ts";
import { limiterPolicy } from "./limiter-policy.ts";
import { logPolicy } from "./log-policy.ts";
import type { ClientMetrics } from "./metrics-policy.ts";
import type { Outcome } from "./outcome.ts";
import { OutgoingRequest, toOutgoing } from "./outgoing.ts";
import { type PartnerRegistry, type Partners, partnerRegistry } from "./partner-registry.ts";
import { type AdmittedTurn, type CallContext, compose, firstAttempt, type Policy } from "./policy.ts";
import { type RetryDeps, retryPolicy } from "./retry-policy.ts";
import { timeoutPolicy } from "./timeout-policy.ts";

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
  readonly retryHooks?: Pick<RetryDeps, "random" | "sleep">;
}

export interface Transport extends PartnerRegistry {
  /** One logical call: its request and, for a call of the client, its value and admitted turn. */
  send(input: Request | OutgoingRequest, call?: Call, admitted?: AdmittedTurn): Promise<Outcome>;
}

export function createTransport(deps: TransportDeps): Transport {
  const { config } = deps;
  const partners = partnerRegistry(config, deps.clock, deps.logger);
  const run = compose(
    policies(deps, partners, (request) => send(request).then((outcome) => outcome.response)),
    fetchTerminal(config.fetch, config.Request, config.maxResponseBytes, deps.onUnparsed),
  );
  const contextOf = contextFactory({
    baseUrl: config.baseUrl,
    mediaUrl: config.mediaUrl,
    deadlineMs: config.retry.deadlineMs,
    redactor: deps.redactor,
    match: deps.match,
    partnerId: () => deps.session().partnerId,
  });

  const send = async (input: Request | OutgoingRequest, call?: Call, admitted?: AdmittedTurn): Promise<Outcome> => {
    let ctx: CallContext | undefined;
    let dispose: (() => void) | undefined;
    try {
      const out =
        input instanceof OutgoingRequest && !(input.body instanceof ReadableStream) ? input : await toOutgoing(input);
      const started = contextOf(out, call, admitted);
      ({ ctx, dispose } = started);
      const state = started.ctx;
      // A call aborted before it starts sends nothing, not even a sign-in.
      if (out.signal?.aborted) throw abortReason(out.signal, call?.signal);
      const { response, parsed } = await run(firstAttempt(state), state);
      // A call that ends on a 429 keeps the partner's rate state of that moment for its error.
      if (response.status === 429) state.rateState = partners.rateState(state.partnerId);
      let built: CallRecord | undefined;
      const record = (): CallRecord => {
        built ??= state.record(response.headers.get("x-request-id") ?? undefined);
        return built;
      };
      return { response, parsed, record };
    } finally {
      dispose?.();
      // A turn taken at admission that no attempt used (the call failed before its first attempt).
      (ctx ? ctx.admitted : admitted)?.turn.done({ kind: "no-response" });
    }
  };
  return { send, partnerFor: partners.partnerFor, rateState: partners.rateState };
}

/** The policies, outermost first. `sendCheck` sends a write check's GET through the whole list. */
function policies(
  deps: TransportDeps,
  partners: Partners,
  sendCheck: (request: Request) => Promise<Response>,
): Policy[] {
  const { config, redactor, logger, metrics } = deps;
  const authorizer = (): Session => deps.session();
  const origins = [config.baseUrl.origin, config.mediaUrl.origin];
  // Loaded on the first call of a client given a tracer (lazy-trace.ts).
  const trace = config.tracer ? lazyTrace({ tracer: config.tracer, redactor }, warnOf(logger)) : undefined;
  return [
    ...(logger.debug || logger.warn ? [logPolicy(logger)] : []),
    ...(trace ? [trace.call] : []),
    ...(metrics ? [metrics.call] : []),
    retryPolicy({
      retry: config.retry,
      basePath: config.baseUrl.pathname,
      logger,
      redactor,
      reauthenticate: (token, requestId) => deps.session().reauthenticate(token, requestId),
      // Loaded on the first write check (lazy-write-checks.ts).
      writeCheck: lazyWriteChecks(sendCheck),
      ...deps.retryHooks,
    }),
    sessionPolicy(authorizer),
    limiterPolicy({
      partnerFor: partners.partnerFor,
      serverNow: () => deps.clock.now(),
      onResponse: partners.onResponse,
    }),
    credentialsPolicy(authorizer),
    ...(trace ? [trace.attempt] : []),
    ...(metrics ? [metrics.attempt] : []),
    timeoutPolicy(config.timeoutMs),
    clockPolicy(deps.clock),
    // Loaded on the first 3xx (lazy-redirect.ts).
    lazyRedirect(origins, CLIENT_DEFAULTS.maxRedirects),
    authSecretsPolicy(redactor),
  ];
}
