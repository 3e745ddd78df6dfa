/**
 * Everything refused before sending, for every call (helpers and raw typed calls alike).
 *
 * The description's schemas, and zod with them, are loaded on the first call that validates
 * (a lazily loaded chunk keeps zod out of a browser app's initial bundle and out of the
 * package's import time). That first call waits for the load; every later one validates
 * synchronously. Nothing is sent before validation, on the first call too.
 */

import type { OperationInfo } from "../../generated/operations.ts";
import type { requestValidators } from "../../generated/validators.ts";
import { ValidationError, type ValidationIssue } from "../errors/validation-error.ts";
import { CLIENT_DEFAULTS } from "../limits.ts";
import { jsonBodyIssues } from "./json-body.ts";
import { pathParamIssues } from "./path-params.ts";
import { ruleIssues } from "./request-rules.ts";
import { toValidationIssues } from "./zod-issues.ts";

export interface OutgoingCall {
  readonly op: OperationInfo;
  readonly params: { readonly path?: Readonly<Record<string, unknown>>; readonly query?: unknown } | undefined;
  readonly body: unknown;
}

type Schemas = typeof requestValidators;
type Schema = NonNullable<Schemas[string]["body"]>;

let loaded: Schemas | undefined;
let loading: Promise<Schemas> | undefined;

/** Loads the schemas (once); resolves when they are there. A failed load is tried again next time. */
export function loadRequestValidators(): Promise<Schemas> {
  if (loaded) return Promise.resolve(loaded);
  loading ??= import("../../generated/validators.ts").then(
    (m) => {
      loaded = m.requestValidators;
      return loaded;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** Throws a ValidationError naming each bad field; a promise only while the schemas load (the first call). */
export function validateRequest(call: OutgoingCall, maxPageLimit: number): void | Promise<void> {
  if (loaded) return check(call, maxPageLimit, loaded);
  return loadRequestValidators().then((schemas) => check(call, maxPageLimit, schemas));
}

function check(call: OutgoingCall, maxPageLimit: number, all: Schemas): void {
  const key = `${call.op.method} ${call.op.path}`;
  const issues: ValidationIssue[] = pathParamIssues(call.params?.path, call.op.pathParams);
  const schemas = all[key];
  if (schemas?.query) append(issues, schemaIssues(schemas.query, call.params?.query ?? {}, "query"));
  const bodyIssues = schemas?.body ? schemaIssues(schemas.body, call.body, "body") : [];
  append(issues, bodyIssues);
  // A body the schema refused gets no second issue from the JSON walk (a NaN it already named).
  if (!bodyIssues.length) append(issues, jsonBodyIssues(call.body, CLIENT_DEFAULTS.maxJsonBodyDepth));
  append(issues, ruleIssues(key, call.params?.query, call.body, maxPageLimit));
  if (issues.length)
    throw new ValidationError(issues, {
      method: call.op.method,
      path: call.op.path,
      expected: "valid input; nothing was sent",
    });
}

/**
 * zod collects the issues of an object's property with `push(...issues)`, one argument per issue:
 * a caller's 200 000 bad rows overflowed the stack (a raw RangeError). That is a typed refusal of
 * the whole part instead.
 */
function schemaIssues(schema: Schema, value: unknown, part: "query" | "body"): ValidationIssue[] {
  try {
    const result = schema.safeParse(value);
    return result.success ? [] : toValidationIssues(result.error.issues, part);
  } catch (error) {
    if (error instanceof RangeError) return [{ field: part, message: "has too many invalid values to list" }];
    throw error;
  }
}

/** `push(...items)` passes each item as an argument: a caller's 200 000 bad rows overflowed the stack. */
function append<T>(to: T[], items: readonly T[]): void {
  for (const item of items) to.push(item);
}
