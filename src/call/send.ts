/**
 * The engine's last step, and the one module that knows how a call crosses openapi-fetch.
 *
 * openapi-fetch builds the URL, query, headers and body and runs the user's middleware; the
 * transport, on the far side, needs the call's own value (its operation, deadline, lane, how to
 * read the body, its own `fetch`). openapi-fetch carries nothing of ours through, and whatever is
 * put into its init reaches a middleware's Request and a user's `fetch`. So the call crosses as
 * openapi-fetch's per-request `fetch` option: a function over the call that hands the request
 * openapi-fetch built, with the call beside it, to the transport, and keeps the transport's
 * outcome (the parsed body, the record errors are built from) for the result. openapi-fetch takes
 * `fetch` out of the init before it builds anything, so nothing of the call rides in a request.
 */
import type { Client } from "openapi-fetch";
import type { CallHooks, CallNote, HookedCall } from "../client-types.ts";
import type { DriftObserver } from "../drift/lazy-drift.ts";
import type { CallResult } from "../internal/call-record.ts";
import { callSignal } from "../internal/call-signal.ts";
import { withRecord } from "../internal/carry-record.ts";
import type { Redactor } from "../internal/redact.ts";
import type { Logger } from "../options.ts";
import { openapiRequestClass, parsedByTransport } from "../transport/caller-code.ts";
import type { Transport } from "../transport/create-transport.ts";
import type { Outcome } from "../transport/outcome.ts";
import type { AdmittedTurn } from "../transport/policy.ts";
import type { ClientPaths } from "../types.ts";
import type { Call } from "./call.ts";

export interface SendDeps {
  readonly api: Client<ClientPaths>;
  readonly transport: Pick<Transport, "send">;
  readonly mediaUrl: URL;
  /** The client's `Request` option. */
  readonly requestClass: typeof Request | undefined;
  readonly redactor: Redactor;
  readonly logger: Logger;
  readonly drift: DriftObserver | undefined;
  /** `after` runs once the call has its result. */
  readonly hooks: readonly CallHooks[];
}

export function createSend(deps: SendDeps): (call: Call, admitted: AdmittedTurn | undefined) => Promise<CallResult> {
  const request = deps.api.request as (method: string, path: string, init: unknown) => Promise<CallResult>;
  return async (call, admitted) => {
    let outcome: Outcome | undefined;
    let taken = false;
    const fetch = async (built: Request): Promise<Response> => {
      taken = true;
      outcome = await deps.transport.send(built, call, admitted);
      return outcome.response;
    };
    let result: CallResult;
    const follower = requestSignal(call);
    try {
      result = await request(call.method, call.path, openapiInit(call, fetch, deps, follower?.signal));
    } finally {
      follower?.dispose();
      // A turn taken at admission is given back when openapi-fetch never reached the transport.
      if (!taken) admitted?.turn.done({ kind: "no-response" });
    }
    if (outcome?.parsed && result.response === outcome.response && "data" in result) result.data = outcome.parsed.data;
    else if (call.op && call.parseJson && result.response.ok && "data" in result)
      result.data = await readJson(result.data);
    const note = observe(call, result, deps);
    if (outcome) {
      const { record } = outcome;
      withRecord(result, note ? () => ({ ...record(), ...note }) : record, deps.redactor);
    }
    return result;
  };
}

/**
 * What openapi-fetch is given: the caller's init, the call's parameters, and the crossing `fetch`.
 * The init's fields are copied one by one: spreading the caller's object (`{ ...init }`) cost
 * ~1.5 µs a call on Node 20, thirty times the loop.
 */
function openapiInit(
  call: Call,
  fetch: (request: Request) => Promise<Response>,
  deps: SendDeps,
  signal: AbortSignal | undefined,
): unknown {
  const { init, op } = call;
  const given: Record<string, unknown> = {
    params: call.params,
    // A middleware is handed real Requests of the caller's class; without one, openapi-fetch builds
    // the client's OutgoingRequest (transport/caller-code.ts). The call's own class and `fetch`
    // go on to the transport in the call: a call's own `fetch` is its transport, not a bypass.
    Request: openapiRequestClass(call, deps.requestClass),
    fetch,
    ...(signal ? { signal } : {}),
  };
  for (const key of Object.keys(init)) if (!(key in given)) given[key] = init[key];
  // [name, value] pairs (checked: guards/header-pairs.ts): openapi-fetch reads an array with
  // Object.entries, which would send each pair as a header named by its index.
  if (Array.isArray(init.headers)) given.headers = new Headers(init.headers as [string, string][]);
  // A 2xx the transport parsed is not parsed again; a middleware's onResponse reads it itself.
  if (op && parsedByTransport(call)) given.parseAs = "stream";
  if (op?.host === "media" && init.baseUrl === undefined) given.baseUrl = deps.mediaUrl.href;
  return given;
}

/**
 * The signal of the Request openapi-fetch builds for a middleware, when the caller's is one of
 * another realm or a polyfill's (internal/abort-signal.ts): a runtime's Request refuses such a
 * signal (Node 24's undici: "Expected signal to be an instance of AbortSignal"), so it gets one of
 * the runtime's own that follows the caller's, dropped once openapi-fetch is done with the call.
 * Undefined otherwise (the caller's signal goes on as given).
 */
function requestSignal(call: Call) {
  const { signal } = call;
  if (!call.middleware || !signal || signal instanceof AbortSignal) return undefined;
  return callSignal(signal, undefined, () => undefined);
}

/**
 * Drift, redaction of the raw error, and the hooks' `after`: what every result passes. Returns
 * what the hooks noted for the call's error, if anything.
 */
function observe(call: Call, result: CallResult, deps: SendDeps): CallNote | undefined {
  const { op } = call;
  // Drift: checked after the result is in hand, in the background; a body is checked only when
  // it was read as JSON (the caller's parseAs).
  if (deps.drift && op)
    deps.drift.observe(op, result.response, result.response.ok ? result.data : result.error, call.parseJson);
  // The raw `{ error }` is what callers log: it is redacted like every error the client builds.
  if (result.error !== undefined) result.error = deps.redactor.value(result.error);
  if (!op) return undefined;
  let note: CallNote | undefined;
  for (const h of deps.hooks) {
    try {
      const noted = h.after?.(call as HookedCall, result);
      if (noted) note = { ...note, ...noted };
    } catch (error) {
      // An observer never changes the outcome: a completed write stays completed.
      deps.logger.warn?.("an after-hook threw; the call's result is returned as it is", {
        method: call.method,
        path: call.path,
        error: error instanceof Error ? error.name : typeof error,
      });
    }
  }
  return note;
}

/**
 * The JSON body of a 2xx the transport did not parse itself (it came from a write check or a
 * user's middleware): read from the stream openapi-fetch handed back.
 */
async function readJson(data: unknown): Promise<unknown> {
  if (!(data instanceof ReadableStream)) return data;
  const text = await new Response(data).text();
  return text ? JSON.parse(text) : undefined;
}
