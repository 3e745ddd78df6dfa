/**
 * OpenTelemetry metrics, only when the `meter` option is given: otherwise no
 * instrument is created and neither policy is in the list. Like tracing, `@opentelemetry/api` is a
 * type-only dependency.
 *
 * Instruments (durations in seconds, as the semantic conventions ask):
 * - `http.client.request.duration`: each attempt, an HTTP request as sent (semantic conventions:
 *   `http.request.method`, `server.address`, `server.port`, `http.response.status_code`,
 *   `error.type`, `url.template`);
 * - `audience.client.call.duration`: each call, retries and waits included;
 * - `audience.client.slot.wait`, `audience.client.pacing.delay`: the wait for a concurrency slot and
 *   for the partner's pace, recorded for attempts that waited;
 * - counters `audience.client.attempts`, `audience.client.retries` (`audience.retry.reason`: the
 *   status, or the failure's kind), `audience.client.rate_limited` (429s), `audience.client.sign_ins`,
 *   `audience.client.refreshes`.
 * Every series also has `audience.partner_id` (once known) and `audience.operation` (the path
 * template; unknown paths get none, which keeps cardinality bounded). No URL, header or body value
 * is recorded, so no secret can reach a metric.
 */
import type { Attributes, Counter, Histogram, Meter } from "@opentelemetry/api";
import type { MeterLike } from "../options.ts";
import { AttemptFailure } from "./failure.ts";
import type { CallContext, Policy } from "./policy.ts";

export interface ClientMetrics {
  readonly attempt: Policy;
  readonly call: Policy;
  /** The session's sign-ins and refreshes. */
  readonly sessionEvent: (event: "sign-in" | "refresh") => void;
}

const SECONDS = { unit: "s" } as const;

/** The instruments of one client, created once. */
interface Instruments {
  readonly requestDuration: Histogram;
  readonly callDuration: Histogram;
  readonly slotWait: Histogram;
  readonly pacingDelay: Histogram;
  readonly attempts: Counter;
  readonly retries: Counter;
  readonly rateLimited: Counter;
  readonly signIns: Counter;
  readonly refreshes: Counter;
}

function createInstruments(meter: Meter): Instruments {
  const counter = (name: string, description: string): Counter =>
    meter.createCounter(name, { unit: "{request}", description });
  return {
    requestDuration: meter.createHistogram("http.client.request.duration", {
      ...SECONDS,
      description: "Duration of HTTP client requests (each attempt).",
    }),
    callDuration: meter.createHistogram("audience.client.call.duration", {
      ...SECONDS,
      description: "Duration of a call, its retries and waits included.",
    }),
    slotWait: meter.createHistogram("audience.client.slot.wait", {
      ...SECONDS,
      description: "Wait for one of the partner's concurrency slots (Section 8.4).",
    }),
    pacingDelay: meter.createHistogram("audience.client.pacing.delay", {
      ...SECONDS,
      description: "Wait for the partner's pace (Section 8.1).",
    }),
    attempts: counter("audience.client.attempts", "HTTP requests sent, retries included."),
    retries: counter("audience.client.retries", "Attempts that were retries, by the reason of the retry."),
    rateLimited: counter("audience.client.rate_limited", "Responses with HTTP 429."),
    signIns: meter.createCounter("audience.client.sign_ins", { unit: "{sign-in}", description: "Sign-ins." }),
    refreshes: meter.createCounter("audience.client.refreshes", {
      unit: "{refresh}",
      description: "Access-token refreshes.",
    }),
  };
}

/** Sets the status and error type of an attempt or call; returns what a retry after it would be for. */
function outcomeOf(attributes: Attributes, response: Response | undefined, error: unknown): string | undefined {
  if (response) {
    attributes["http.response.status_code"] = response.status;
    if (response.status >= 400) attributes["error.type"] = String(response.status);
    return response.status >= 400 ? String(response.status) : undefined;
  }
  const kind =
    error instanceof AttemptFailure ? error.kind : (error as { name?: string } | undefined)?.name || "_OTHER";
  attributes["error.type"] = kind;
  return kind;
}

/** A client whose meter threw when its instruments were made: every call goes on unmeasured. */
const UNMEASURED: ClientMetrics = {
  attempt: (attempt, ctx, next) => next(attempt, ctx),
  call: (attempt, ctx, next) => next(attempt, ctx),
  sessionEvent: () => undefined,
};

/**
 * @param fault told when the meter or an instrument throws: an observer never changes a call's
 *   outcome, so what could not be recorded is not, and the call goes on
 */
export function clientMetrics(meterLike: MeterLike, environment: URL, fault: (error: unknown) => void): ClientMetrics {
  let i: Instruments;
  try {
    i = createInstruments(meterLike as Meter);
  } catch (error) {
    fault(error);
    return UNMEASURED;
  }
  const server = {
    "server.address": environment.hostname,
    "server.port": Number(environment.port) || (environment.protocol === "https:" ? 443 : 80),
  };
  const partner: Attributes = {};
  /** What the previous attempt of a call ended with: the reason of its retry. */
  const previous = new WeakMap<CallContext, string>();

  const base = (ctx: CallContext): Attributes => {
    const attributes: Attributes = { "http.request.method": ctx.method, ...server };
    if (ctx.op) attributes["url.template"] = attributes["audience.operation"] = ctx.op.path;
    if (ctx.partnerId) attributes["audience.partner_id"] = partner["audience.partner_id"] = ctx.partnerId;
    return attributes;
  };
  /** The counters of one attempt, and the waits it had before it left. */
  const counted = (ctx: CallContext, response: Response | undefined, outcome: string | undefined): void => {
    const attributes = base(ctx);
    i.attempts.add(1, attributes);
    const reason = previous.get(ctx);
    if (ctx.attempt > 1 && reason) i.retries.add(1, { ...attributes, "audience.retry.reason": reason });
    if (outcome) previous.set(ctx, outcome);
    if (response?.status === 429) i.rateLimited.add(1, attributes);
    if (ctx.slotWaitMs !== undefined) i.slotWait.record(ctx.slotWaitMs / 1000, attributes);
    if (ctx.paceWaitMs !== undefined) i.pacingDelay.record(ctx.paceWaitMs / 1000, attributes);
    ctx.slotWaitMs = ctx.paceWaitMs = undefined;
  };

  const timed =
    (histogram: Histogram, perAttempt: boolean): Policy =>
    async (attempt, ctx, next) => {
      const started = performance.now();
      let response: Response | undefined;
      let error: unknown;
      try {
        const reply = await next(attempt, ctx);
        response = reply.response;
        return reply;
      } catch (e) {
        error = e;
        throw e;
      } finally {
        try {
          const attributes = base(ctx);
          const outcome = outcomeOf(attributes, response, error);
          histogram.record((performance.now() - started) / 1000, attributes);
          if (perAttempt) counted(ctx, response, outcome);
        } catch (e) {
          fault(e); // thrown from here it would replace the call's outcome
        }
      }
    };

  return {
    attempt: timed(i.requestDuration, true),
    call: timed(i.callDuration, false),
    sessionEvent: (event) => {
      try {
        (event === "sign-in" ? i.signIns : i.refreshes).add(1, { ...server, ...partner });
      } catch (error) {
        fault(error);
      }
    },
  };
}
