/**
 * The engine's first step: the checks that refuse bad input before anything is sent, and the
 * setup-state guards, then the call's value (call.ts). A promise only while the request schemas
 * load (the first call that validates).
 */
import type { OperationInfo } from "../../generated/operations.ts";
import type { CallHooks, CallParams, HookedCall } from "../client-types.ts";
import type { Lane } from "../coordination/coordinator.ts";
import { ValidationError } from "../errors/validation-error.ts";
import { callHeaderIssues } from "../guards/header-pairs.ts";
import { initIssues } from "../guards/init-fields.ts";
import { jsonBodyIssues } from "../guards/json-body.ts";
import { partnerTokenPathIssues } from "../guards/partner-token-paths.ts";
import { pathParamIssues, templateParams } from "../guards/path-params.ts";
import { queryIssues } from "../guards/query-values.ts";
import { rawPathIssues } from "../guards/raw-path.ts";
import { pageLimitIssues } from "../guards/request-rules.ts";
import { validateRequest } from "../guards/validate-request.ts";
import { operationOf } from "../internal/operation-index.ts";
import { CLIENT_DEFAULTS } from "../limits.ts";
import { middlewareSees } from "../transport/caller-code.ts";
import type { FetchFn } from "../transport/send-attempt.ts";
import type { CallDeadline } from "./after-load.ts";
import type { Call } from "./call.ts";
import { HELPER, type HelperOptions } from "./helper-options.ts";
import { readOnce } from "./read-once.ts";

export interface PrepareDeps {
  readonly maxPageLimit: number;
  readonly adPlatform: string | undefined;
  /** The setup-state guards and the test seams' hooks: `before` runs here. */
  readonly hooks: readonly CallHooks[];
  /** Whether a middleware is registered on the client (`use`). */
  readonly middlewares: () => boolean;
}

export type Prepare = (
  method: string,
  path: string,
  init: Record<string, unknown> | undefined,
  deadline: CallDeadline | undefined,
) => Call | Promise<Call>;

export function createPrepare(deps: PrepareDeps): Prepare {
  return (method, path, given, deadline) => {
    const op = operationOf(method, path);
    const init = given == null ? {} : readOnce(withoutHelperOptions(checkedInit(method, op && path, given)));
    if (!op) refuseOutsideDescription(method, path, init, deps.maxPageLimit);
    refuseBadValues(method, path, init);
    const initProblems = initIssues(method, init);
    if (initProblems.length)
      throw new ValidationError(initProblems, { method, path: op && path, expected: NOTHING_SENT });
    const call = callOf(method, path, op, init, given, deadline, deps);
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
  deadline: CallDeadline | undefined,
  deps: PrepareDeps,
): Call {
  const helper = (given as { [HELPER]?: HelperOptions } | undefined)?.[HELPER];
  const params = init.params as CallParams | undefined;
  const middleware = middlewareSees(deps.middlewares(), init.middleware);
  return new PreparedCall(
    method,
    path,
    op,
    op ? withDefaults(op, params, deps.adPlatform) : params,
    init,
    deadline,
    helper?.transportRetries !== false,
    middleware,
  );
}

/**
 * The Call as this step builds it. What the init says (body, signal, lane, how to parse, its own
 * `fetch` and `Request`) is read from the init as read once (read-once.ts), not copied again into
 * fields: a call waiting for its turn holds this object, and memory per queued call is a target
 * (BENCHMARKS.md).
 */
class PreparedCall implements Call {
  readonly method: string;
  readonly path: string;
  readonly op: OperationInfo | undefined;
  readonly params: CallParams | undefined;
  readonly init: Readonly<Record<string, unknown>>;
  /** The deadline and when the call was made, one field: undefined without a deadline (memory per queued call, BENCHMARKS.md). */
  readonly deadline: CallDeadline | undefined;
  readonly transportRetries: boolean;
  readonly middleware: boolean;

  constructor(
    method: string,
    path: string,
    op: OperationInfo | undefined,
    params: CallParams | undefined,
    init: Readonly<Record<string, unknown>>,
    deadline: CallDeadline | undefined,
    transportRetries: boolean,
    middleware: boolean,
  ) {
    this.method = method;
    this.path = path;
    this.op = op;
    this.params = params;
    this.init = init;
    this.deadline = deadline;
    this.transportRetries = transportRetries;
    this.middleware = middleware;
  }

  get deadlineAt(): number | undefined {
    return this.deadline?.at;
  }

  get askedAt(): number | undefined {
    return this.deadline?.askedAt;
  }

  get body(): unknown {
    return this.init.body;
  }

  get signal(): AbortSignal | undefined {
    return this.init.signal as AbortSignal | undefined;
  }

  get lane(): Lane {
    return this.init.priority === "low" ? "background" : "interactive";
  }

  get parseJson(): boolean {
    return this.init.parseAs === undefined || this.init.parseAs === "json";
  }

  get fetch(): FetchFn | undefined {
    return this.init.fetch as FetchFn | undefined;
  }

  get requestClass(): typeof Request | undefined {
    return this.init.Request as typeof Request | undefined;
  }
}

/**
 * Paths outside the description are not validated by their schemas, so the path itself is
 * checked, the values of its template's parameters (guards/path-params.ts: a `..` would move the
 * call elsewhere), its body (a deep one overflowed JSON.stringify), and the page cap, which holds
 * for every bulk read (Section 8.5).
 */
function refuseOutsideDescription(
  method: string,
  path: string,
  init: Record<string, unknown>,
  maxPageLimit: number,
): void {
  const params = init.params as CallParams | undefined;
  const pathIssues = [...rawPathIssues(path), ...jsonBodyIssues(init.body, CLIENT_DEFAULTS.maxJsonBodyDepth)];
  if (!pathIssues.length && path.includes("{"))
    pathIssues.push(...pathParamIssues(params?.path, templateParams(path), false));
  if (!pathIssues.length) pathIssues.push(...partnerTokenPathIssues(path));
  if (pathIssues.length)
    throw new ValidationError(pathIssues, { method, expected: "a path of the API and a JSON body; nothing was sent" });
  const limitIssues = pageLimitIssues(params?.query, maxPageLimit);
  if (limitIssues.length) throw new ValidationError(limitIssues, { method, expected: "valid input; nothing was sent" });
}

/** Query and header values as openapi-fetch takes them (guards/request-values.ts). */
function refuseBadValues(method: string, path: string, init: Record<string, unknown>): void {
  const params = init.params as CallParams | undefined;
  if (params?.query === undefined && params?.header === undefined && init.headers === undefined) return;
  const issues = [
    ...queryIssues(params?.query),
    ...callHeaderIssues(params?.header, "header"),
    ...callHeaderIssues(init.headers, "headers"),
  ];
  if (issues.length) throw new ValidationError(issues, { method, path, expected: "valid input; nothing was sent" });
}

function withDefaults(op: OperationInfo, params: CallParams | undefined, adPlatform: string | undefined) {
  if (!op.pathParams.includes("adplatform") || !adPlatform || params?.path?.adplatform !== undefined) return params;
  return { ...params, path: { ...params?.path, adplatform: adPlatform } };
}

const NOTHING_SENT = "valid input; nothing was sent";

/** The init as openapi-fetch takes it: an object (null is none, as openapi-fetch reads it). */
function checkedInit(method: string, path: string | undefined, init: unknown): Record<string, unknown> {
  if (typeof init === "object") return init as Record<string, unknown>;
  throw new ValidationError([{ field: "init", message: "must be an object" }], {
    method,
    path,
    expected: NOTHING_SENT,
  });
}

/** The init without the helpers' options (helper-options.ts): a copy only when there were some. */
function withoutHelperOptions(init: Record<string, unknown>): Record<string, unknown> {
  if (!(HELPER in init)) return init;
  const { [HELPER]: _helper, ...rest } = init as Record<string, unknown> & { [HELPER]?: HelperOptions };
  return rest;
}
