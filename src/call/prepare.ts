/**
 * The engine's first step: the checks that refuse bad input before anything is sent, and the
 * setup-state guards, then the call's value (call.ts). A promise only while the request schemas
 * load (the first call that validates).
 */
import type { OperationInfo } from "../../generated/operations.ts";
import type { CallHooks, CallParams, HookedCall } from "../client-types.ts";
import { ValidationError } from "../errors/validation-error.ts";
import { jsonBodyIssues } from "../guards/json-body.ts";
import { partnerTokenPathIssues } from "../guards/partner-token-paths.ts";
import { rawPathIssues } from "../guards/raw-path.ts";
import { pageLimitIssues } from "../guards/request-rules.ts";
import { headerIssues, queryIssues } from "../guards/request-values.ts";
import { validateRequest } from "../guards/validate-request.ts";
import { operationOf } from "../internal/operation-index.ts";
import { CLIENT_DEFAULTS } from "../limits.ts";
import type { FetchFn } from "../transport/send-attempt.ts";
import type { Call } from "./call.ts";
import { HELPER, type HelperOptions } from "./helper-options.ts";

export interface PrepareDeps {
  readonly maxPageLimit: number;
  readonly adPlatform: string | undefined;
  /** The setup-state guards and the test seams' hooks: `before` runs here. */
  readonly hooks: readonly CallHooks[];
  /** Whether a middleware is registered on the client (`use`). */
  readonly middlewares: () => boolean;
}

export type Prepare = (method: string, path: string, init: Record<string, unknown> | undefined) => Call | Promise<Call>;

export function createPrepare(deps: PrepareDeps): Prepare {
  return (method, path, given) => {
    const op = operationOf(method, path);
    const init = given === undefined ? {} : withoutHelperOptions(given);
    if (!op) refuseOutsideDescription(method, path, init, deps.maxPageLimit);
    refuseBadValues(method, path, init);
    const call = callOf(method, path, op, init, given, deps);
    if (!op) return call;
    const validating = validateRequest(call as HookedCall, deps.maxPageLimit);
    const guarded = (): Call => {
      for (const h of deps.hooks) h.before?.(call as HookedCall);
      return call;
    };
    if (!validating) return guarded();
    return validating.then(guarded); // the first call loads the schemas (a lazily loaded chunk)
  };
}

function callOf(
  method: string,
  path: string,
  op: OperationInfo | undefined,
  init: Record<string, unknown>,
  given: Record<string, unknown> | undefined,
  deps: PrepareDeps,
): Call {
  const helper = (given as { [HELPER]?: HelperOptions } | undefined)?.[HELPER];
  const params = init.params as CallParams | undefined;
  return {
    method,
    path,
    op,
    params: op ? withDefaults(op, params, deps.adPlatform) : params,
    body: init.body,
    init,
    signal: init.signal as AbortSignal | undefined,
    lane: init.priority === "low" ? "background" : "interactive",
    deadlineAt: helper?.deadlineAt,
    parseJson: init.parseAs === undefined || init.parseAs === "json",
    transportRetries: helper?.transportRetries !== false,
    middleware: deps.middlewares() || (Array.isArray(init.middleware) && init.middleware.length > 0),
    fetch: init.fetch as FetchFn | undefined,
    requestClass: init.Request as typeof Request | undefined,
  };
}

/**
 * Paths outside the description are not validated by their schemas, so the path itself is
 * checked, its body (a deep one overflowed JSON.stringify), and the page cap, which holds for
 * every bulk read (Section 8.5).
 */
function refuseOutsideDescription(
  method: string,
  path: string,
  init: Record<string, unknown>,
  maxPageLimit: number,
): void {
  const pathIssues = [...rawPathIssues(path), ...jsonBodyIssues(init.body, CLIENT_DEFAULTS.maxJsonBodyDepth)];
  if (!pathIssues.length) pathIssues.push(...partnerTokenPathIssues(path));
  if (pathIssues.length)
    throw new ValidationError(pathIssues, { method, expected: "a path of the API and a JSON body; nothing was sent" });
  const limitIssues = pageLimitIssues((init.params as CallParams | undefined)?.query, maxPageLimit);
  if (limitIssues.length) throw new ValidationError(limitIssues, { method, expected: "valid input; nothing was sent" });
}

/** Query and header values as openapi-fetch takes them (guards/request-values.ts). */
function refuseBadValues(method: string, path: string, init: Record<string, unknown>): void {
  const params = init.params as CallParams | undefined;
  if (params?.query === undefined && params?.header === undefined && init.headers === undefined) return;
  const issues = [
    ...queryIssues(params?.query),
    ...headerIssues(params?.header, "header"),
    ...headerIssues(init.headers, "headers"),
  ];
  if (issues.length) throw new ValidationError(issues, { method, path, expected: "valid input; nothing was sent" });
}

function withDefaults(op: OperationInfo, params: CallParams | undefined, adPlatform: string | undefined) {
  if (!op.pathParams.includes("adplatform") || !adPlatform || params?.path?.adplatform !== undefined) return params;
  return { ...params, path: { ...params?.path, adplatform: adPlatform } };
}

/** The init without the helpers' options (helper-options.ts): a copy only when there were some. */
function withoutHelperOptions(init: Record<string, unknown>): Record<string, unknown> {
  if (!(HELPER in init)) return init;
  const { [HELPER]: _helper, ...rest } = init as Record<string, unknown> & { [HELPER]?: HelperOptions };
  return rest;
}
