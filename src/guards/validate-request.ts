/** Everything refused before sending, for every call (helpers and raw typed calls alike). */

import type { OperationInfo } from "../../generated/operations.ts";
import { requestValidators } from "../../generated/validators.ts";
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

type Schema = NonNullable<(typeof requestValidators)[string]["body"]>;

export function validateRequest(call: OutgoingCall, maxPageLimit: number): void {
  const key = `${call.op.method} ${call.op.path}`;
  const issues: ValidationIssue[] = pathParamIssues(call.params?.path, call.op.pathParams);
  const schemas = requestValidators[key];
  if (schemas?.query) append(issues, schemaIssues(schemas.query, call.params?.query ?? {}, "query"));
  if (schemas?.body) append(issues, schemaIssues(schemas.body, call.body, "body"));
  append(issues, jsonBodyIssues(call.body, CLIENT_DEFAULTS.maxJsonBodyDepth));
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
