/**
 * The client's transport: the policy list below is the architecture of the request path.
 * openapi-fetch calls the result once per logical request; every policy here holds on every
 * attempt (current token, partner header, concurrency slot).
 */
import { attachRecord, type CallRecord } from "../internal/call-record.ts";
import type { OperationMatcher } from "../internal/operation-matcher.ts";
import type { Redactor } from "../internal/redact.ts";
import { CLIENT_DEFAULTS, SPEC } from "../limits.ts";
import type { ClientConfig } from "../options.ts";
import type { Session } from "../session/session.ts";
import { authPolicy } from "./auth-policy.ts";
import { fetchTerminal } from "./fetch-terminal.ts";
import { ConcurrencyLimiter } from "./limiter.ts";
import { limiterPolicy } from "./limiter-policy.ts";
import { RatePacer } from "./pacer.ts";
import { logPolicy } from "./log-policy.ts";
import { compose, type CallContext, type Policy } from "./policy.ts";
import { redirectPolicy } from "./redirect-policy.ts";
import { retryPolicy, type RetryDeps } from "./retry-policy.ts";
import { timeoutPolicy } from "./timeout-policy.ts";
import { writeChecks } from "./write-checks.ts";

export interface TransportDeps {
  readonly config: ClientConfig;
  readonly redactor: Redactor;
  readonly match: OperationMatcher;
  readonly session: () => Session;
  /** Test seams: randomness, clock and sleep of the retry policy. */
  readonly retryHooks?: Pick<RetryDeps, "random" | "now" | "sleep">;
}

export interface Transport {
  (request: Request): Promise<Response>;
  readonly limiterFor: (partnerId: string | undefined) => ConcurrencyLimiter;
  /** The partner's rate pacer; undefined when `ratePacing` is off. */
  readonly pacerFor: (partnerId: string | undefined) => RatePacer | undefined;
}

const UNAUTHENTICATED = /^\/(auth(\/.*)?|status\/)$/;

export function createTransport(deps: TransportDeps): Transport {
  const { config, redactor } = deps;
  const limiters = new Map<string, ConcurrencyLimiter>();
  const limiterFor = (partnerId: string | undefined): ConcurrencyLimiter => {
    const key = partnerId ?? "";
    let limiter = limiters.get(key);
    if (!limiter) {
      limiter = new ConcurrencyLimiter({ max: config.maxConcurrency, reduced: Math.min(config.maxConcurrency, SPEC.reducedConcurrency), quietMs: config.rateLimitQuietPeriodMs });
      limiters.set(key, limiter);
    }
    return limiter;
  };
  const pacers = new Map<string, RatePacer>();
  const pacerFor = (partnerId: string | undefined): RatePacer | undefined => {
    if (!config.ratePacing) return undefined;
    const key = partnerId ?? "";
    let pacer = pacers.get(key);
    if (!pacer) {
      pacer = new RatePacer();
      pacers.set(key, pacer);
    }
    return pacer;
  };
  const origins = [config.baseUrl.origin, config.mediaUrl.origin];
  const environment = `${config.baseUrl.origin}${config.baseUrl.pathname}`;

  const policies: Policy[] = [
    logPolicy(config.logger),
    retryPolicy({
      config,
      logger: config.logger,
      reauthenticate: (token) => deps.session().reauthenticate(token),
      writeCheck: writeChecks((request) => transport(request)),
      ...deps.retryHooks,
    }),
    authPolicy(() => deps.session().authorize()),
    limiterPolicy(limiterFor, pacerFor),
    timeoutPolicy(config.timeoutMs),
    redirectPolicy(origins, CLIENT_DEFAULTS.maxRedirects),
  ];
  const run = compose(policies, fetchTerminal(config.fetch));

  const transport = async (input: Request): Promise<Response> => {
    const url = new URL(input.url);
    const method = input.method.toUpperCase();
    const match = deps.match(method, url);
    const onApiOrigin = origins.includes(url.origin);
    const relative = url.pathname.slice(config.baseUrl.pathname.length);
    const authenticated = match ? match.op.auth : onApiOrigin && !UNAUTHENTICATED.test(relative);
    const ctx: CallContext = {
      original: input,
      url,
      method,
      match,
      authenticated,
      signal: input.signal,
      startedAt: Date.now(),
      attempt: 0,
      tokenUsed: undefined,
      partnerId: undefined,
      retryAfterMs: undefined,
      mayHaveSucceeded: false,
      record(requestId?: string): CallRecord {
        const headers = new Headers(input.headers);
        if (ctx.authenticated) {
          headers.set("Authorization", "Bearer [REDACTED]");
          if (ctx.partnerId) headers.set("X-Preferred-Partner-Id", ctx.partnerId);
        }
        return {
          method,
          path: match ? match.op.path : redactor.text(url.pathname),
          environment,
          partnerId: ctx.partnerId ?? deps.session().partnerId,
          request: { method, url: redactor.text(url.href), headers: redactor.headers(headers) },
          attempts: ctx.attempt,
          retryAfterMs: ctx.retryAfterMs,
          mayHaveSucceeded: ctx.mayHaveSucceeded,
          requestId,
        };
      },
    };
    const response = await run(input, ctx);
    attachRecord(response, ctx.record(response.headers.get("x-request-id") ?? undefined), redactor);
    return response;
  };
  return Object.assign(transport, { limiterFor, pacerFor });
}
