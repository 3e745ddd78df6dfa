/**
 * The transport's state of one logical call (policy.ts `CallContext`), built once from the request
 * openapi-fetch (or the session, a write check) built and, for a call of the client, its value
 * (call/call.ts). A call a user's middleware saw (it may have rewritten the request) is matched
 * again from its URL, as a request with no call is.
 */
import type { OperationInfo } from "../../generated/operations.ts";
import type { Call } from "../call/call.ts";
import type { CallRecord } from "../internal/call-record.ts";
import { callSignal } from "../internal/call-signal.ts";
import { monotonicNow } from "../internal/clock.ts";
import type { OperationMatcher } from "../internal/operation-index.ts";
import type { Redactor } from "../internal/redact.ts";
import { PARTNER_HEADER } from "./auth-policy.ts";
import { bodyKeptReadable, operationUnchanged } from "./caller-code.ts";
import { AttemptFailure } from "./failure.ts";
import type { OutgoingRequest } from "./outgoing.ts";
import type { AdmittedTurn, CallContext } from "./policy.ts";

const UNAUTHENTICATED = /^\/(auth(\/.*)?|status\/)$/;
/** The /auth family: sign-in and refresh carry the password or the refresh token in their body. */
const CARRIES_SECRET = /^\/auth(\/|$)/;

/** What every call's context is built with: fixed when the client is created. */
export interface ContextDeps {
  readonly baseUrl: URL;
  readonly mediaUrl: URL;
  /** The client's `retry.deadlineMs`, counted from each call's start. */
  readonly deadlineMs: number | undefined;
  readonly redactor: Redactor;
  readonly match: OperationMatcher;
  /** The session's partner, for the record of a call that failed before one was stamped. */
  readonly partnerId: () => string | undefined;
}

/** The operation, path and trust of a request: from its call when the URL is the call's own. */
interface Target {
  readonly op: OperationInfo | undefined;
  readonly authenticated: boolean;
  readonly path: string;
  readonly secretBody: boolean;
}

export type ContextFactory = (
  out: OutgoingRequest,
  call: Call | undefined,
  admitted: AdmittedTurn | undefined,
) => {
  ctx: CallContext;
  dispose(): void;
};

export function contextFactory(deps: ContextDeps): ContextFactory {
  const { baseUrl, mediaUrl, redactor } = deps;
  const environment = `${baseUrl.origin}${baseUrl.pathname}`;
  const origins = [baseUrl.origin, mediaUrl.origin];
  // A typed call names its operation; it is trusted when the URL is under that operation's base.
  const prefixes = { main: `${trimSlash(baseUrl.href)}/`, media: `${trimSlash(mediaUrl.href)}/` };

  // A user's middleware may have rewritten the request: its URL is matched again.
  const targetOf = (out: OutgoingRequest, call: Call | undefined): Target => {
    const op = call?.op;
    if (op && operationUnchanged(call) && out.url.startsWith(prefixes[op.host]) && out.method === op.method)
      return { op, authenticated: op.auth, path: op.path, secretBody: CARRIES_SECRET.test(op.path) };
    const parsed = new URL(out.url);
    const found = deps.match(out.method, parsed)?.op;
    const relative = parsed.pathname.slice(baseUrl.pathname.length);
    return {
      op: found,
      authenticated: found ? found.auth : origins.includes(parsed.origin) && !UNAUTHENTICATED.test(relative),
      path: found ? found.path : redactor.text(parsed.pathname),
      secretBody: CARRIES_SECRET.test(found ? found.path : relative),
    };
  };

  return (out, call, admitted) => {
    const target = targetOf(out, call);
    const startedAt = monotonicNow();
    // The earlier of the client's per-call deadline and a helper's deadline spanning its calls.
    const own = deps.deadlineMs === undefined ? undefined : startedAt + deps.deadlineMs;
    const given = call?.deadlineAt;
    const deadlineAt = own === undefined ? given : given === undefined ? own : Math.min(own, given);
    const deadlineMs = deadlineAt === undefined ? undefined : Math.max(0, deadlineAt - startedAt);
    // Named as given: counted from when the call was made (a wait for code to load included).
    const namedMs = deadlineAt === undefined ? 0 : deadlineAt - (call?.askedAt ?? startedAt);
    // A call with neither a signal nor a deadline (the common one) has no scope and builds no reason.
    const scope =
      out.signal || deadlineMs !== undefined
        ? callSignal(
            out.signal ?? undefined,
            deadlineMs,
            () => new AttemptFailure("deadline", true, `the call's deadline of ${Math.round(namedMs)} ms passed`),
            call?.signal,
          )
        : undefined;
    const ownCall = target.op !== undefined && target.op === call?.op;
    const ctx: CallContext = {
      url: out.url,
      method: out.method,
      headers: out.headers,
      body: out.body,
      op: target.op,
      authenticated: target.authenticated,
      path: target.path,
      secretBody: target.secretBody,
      // A 2xx of a described operation read as JSON is parsed by the terminal; a call outside the
      // description still says whether its 2xx must be JSON.
      parseJson: ownCall && (call as Call).parseJson,
      expectJson: call?.parseJson ?? true,
      keepBody: bodyKeptReadable(call),
      transportRetries: call?.transportRetries ?? true,
      admitted,
      lane: call?.lane ?? (out.priority === "low" ? "background" : "interactive"),
      passThrough: out.passThrough,
      fetch: call?.fetch,
      requestClass: out.requestClass ?? call?.requestClass,
      signal: scope?.signal,
      startedAt,
      deadlineAt,
      attempt: 0,
      tokenUsed: undefined,
      partnerId: undefined,
      retryAfterMs: undefined,
      mayHaveSucceeded: false,
      record: (requestId) => recordOf(ctx, requestId, environment, deps),
    };
    return { ctx, dispose: scope ? () => scope.dispose() : nothingToDispose };
  };
}

/** A call with neither a caller's signal nor a deadline follows nothing. */
const nothingToDispose = (): void => undefined;

/** What errors and support reports say of the call (internal/call-record.ts), built when first asked. */
function recordOf(ctx: CallContext, requestId: string | undefined, environment: string, deps: ContextDeps): CallRecord {
  const { redactor } = deps;
  const shown = new Headers(ctx.headers);
  if (ctx.authenticated) {
    shown.set("Authorization", "Bearer [REDACTED]");
    if (ctx.partnerId) shown.set(PARTNER_HEADER, ctx.partnerId);
  } else {
    shown.delete("Authorization");
  }
  return {
    method: ctx.method,
    path: ctx.path,
    environment,
    partnerId: ctx.partnerId ?? deps.partnerId(),
    request: { method: ctx.method, url: redactor.text(ctx.url), headers: redactor.headers(shown) },
    attempts: ctx.attempt,
    retryAfterMs: ctx.retryAfterMs,
    mayHaveSucceeded: ctx.mayHaveSucceeded,
    writeCheckNote: ctx.writeCheckNote,
    unrenewable: ctx.unrenewable,
    retryAt: ctx.retryAt,
    rateState: ctx.rateState,
    requestId: requestId === undefined ? undefined : redactor.text(requestId),
  };
}

const trimSlash = (s: string): string => (s.endsWith("/") ? s.slice(0, -1) : s);
