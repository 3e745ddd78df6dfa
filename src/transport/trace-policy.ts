/**
 * OpenTelemetry tracing, in two policies placed around the retry policy by create-transport.ts,
 * only when the `tracer` option is given (otherwise neither is in the list: nothing here runs or
 * allocates):
 *
 * - `traceCallPolicy`, before the retry policy: one span per call, kind INTERNAL (the logical
 *   operation, as Azure's SDKs do), ending with the final status or error and the attempt count;
 * - `traceAttemptPolicy`, inside it: one span per attempt, kind CLIENT, following the OpenTelemetry
 *   HTTP client semantic conventions (one span per physical request; `http.request.resend_count`
 *   on a retry; `error.type` on failure; `{method} {url.template}` as the name).
 *
 * `@opentelemetry/api` is a type-only dependency: nothing of it is imported at run time, so the
 * three enum values used are written as numbers, and the child's parent is passed in a small
 * Context under the API's span key (see `contextOf`). A span never holds a secret: the URL and
 * the request id go through the client's Redactor, and no header value is recorded.
 */
import type { Attributes, Context, Span, SpanKind, SpanStatus, SpanStatusCode, Tracer } from "@opentelemetry/api";
import type { Redactor } from "../internal/redact.ts";
import type { TracerLike } from "../options.ts";
import { AttemptFailure } from "./failure.ts";
import type { Policy } from "./policy.ts";

const INTERNAL = 0 as SpanKind.INTERNAL;
const CLIENT = 2 as SpanKind.CLIENT;
const ERROR = 2 as SpanStatusCode.ERROR;

/**
 * The key `trace.setSpan` stores a span under. @opentelemetry/api makes its context keys with
 * `Symbol.for(description)` so that every copy of the API agrees on them; this is that key.
 */
const SPAN_KEY = Symbol.for("OpenTelemetry Context Key SPAN");

/** What both trace policies need. */
export interface TraceDeps {
  readonly tracer: TracerLike;
  readonly redactor: Redactor;
  /** Told when the tracer or a span throws (the logger hears of it once: lazy-trace.ts). */
  readonly fault: (error: unknown) => void;
}

/** The span of the whole call (retries included); its context is the parent of every attempt's span. */
export const traceCallPolicy = (deps: TraceDeps): Policy => tracePolicy(deps, true);

/** The span of one attempt: one HTTP request as sent (after the session, slot and credentials). */
export const traceAttemptPolicy = (deps: TraceDeps): Policy => tracePolicy(deps, false);

function tracePolicy({ tracer, redactor, fault }: TraceDeps, call: boolean): Policy {
  return async (attempt, ctx, next) => {
    const { hostname, port, protocol } = new URL(attempt.url);
    const attributes: Attributes = {
      "http.request.method": ctx.method,
      "url.full": redactor.shown(attempt.url),
      "server.address": hostname,
      "server.port": Number(port) || (protocol === "https:" ? 443 : 80),
    };
    // The operation is the path template of the description; unknown paths get none (cardinality).
    if (ctx.op) attributes["url.template"] = attributes["audience.operation"] = ctx.op.path;
    if (!call) {
      if (ctx.attempt > 1) attributes["http.request.resend_count"] = ctx.attempt - 1;
      if (ctx.retryWaitMs !== undefined) attributes["audience.retry_wait_ms"] = ctx.retryWaitMs;
      ctx.retryWaitMs = undefined; // consumed: an attempt after a 401 renewal had no wait
    }
    let span: Span;
    try {
      span = (tracer as Tracer).startSpan(
        ctx.op ? `${ctx.method} ${ctx.op.path}` : ctx.method,
        { kind: call ? INTERNAL : CLIENT, attributes },
        ctx.traceContext as Context | undefined, // the call's span for an attempt; unset for the call
      );
    } catch (error) {
      // An observer never changes a call's outcome: a tracer that throws leaves this one untraced.
      fault(error);
      return next(attempt, ctx);
    }
    if (call) ctx.traceContext = contextOf(new Map([[SPAN_KEY, span]]));
    let requestId: string | null | undefined;
    let message: string | undefined;
    const ended: Attributes = {};
    try {
      const reply = await next(attempt, ctx);
      const { response } = reply;
      ended["http.response.status_code"] = response.status;
      requestId = response.headers.get("x-request-id");
      // Semantic conventions: a client span is in error from status 400 on, the status its type.
      if (response.status >= 400) ended["error.type"] = String(response.status);
      return reply;
    } catch (error) {
      // A failed attempt (its kind: network, timeout, deadline…) or call (the public error's name).
      // The redacted message goes in the status; no exception event (no stack, and span events
      // for exceptions are being replaced by logs in OpenTelemetry).
      const e = error as { name?: string; message?: string; requestId?: string } | undefined;
      ended["error.type"] = error instanceof AttemptFailure ? error.kind : e?.name || "_OTHER";
      message = redactor.shown(String(e?.message));
      requestId = e?.requestId;
      throw error;
    } finally {
      if (ctx.partnerId) ended["audience.partner_id"] = ctx.partnerId;
      ended["audience.attempt"] = ctx.attempt; // of the call span: the last attempt's, their count
      if (requestId) ended["audience.request_id"] = redactor.shown(requestId);
      try {
        span.setAttributes(ended);
        if (ended["error.type"]) span.setStatus({ code: ERROR, message } as SpanStatus);
        span.end();
      } catch (error) {
        fault(error); // thrown from here it would replace the call's outcome
      }
    }
  };
}

/**
 * An immutable Context over `values`; with the call's span under SPAN_KEY it is what
 * `trace.setSpan(ROOT_CONTEXT, span)` makes, without loading the API.
 */
const contextOf = (values: ReadonlyMap<symbol, unknown>): Context => ({
  getValue: (key) => values.get(key),
  setValue: (key, value) => contextOf(new Map(values).set(key, value)),
  deleteValue: (key) => contextOf(new Map(values).set(key, undefined)),
});
