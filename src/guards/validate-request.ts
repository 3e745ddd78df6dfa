/** Everything refused before sending, for every call (helpers and raw typed calls alike). */

import type { OperationInfo } from "../../generated/operations.ts";
import { requestValidators } from "../../generated/validators.ts";
import { ValidationError, type ValidationIssue } from "../errors/validation-error.ts";
import { pathParamIssues } from "./path-params.ts";
import { ruleIssues } from "./request-rules.ts";
import { toValidationIssues } from "./zod-issues.ts";

export interface OutgoingCall {
  readonly op: OperationInfo;
  readonly params: { readonly path?: Readonly<Record<string, unknown>>; readonly query?: unknown } | undefined;
  readonly body: unknown;
}

export function validateRequest(call: OutgoingCall, maxPageLimit: number): void {
  const key = `${call.op.method} ${call.op.path}`;
  const issues: ValidationIssue[] = pathParamIssues(call.params?.path, call.op.pathParams);
  const schemas = requestValidators[key];
  if (schemas?.query) {
    const result = schemas.query.safeParse(call.params?.query ?? {});
    if (!result.success) issues.push(...toValidationIssues(result.error.issues, "query"));
  }
  if (schemas?.body) {
    const result = schemas.body.safeParse(call.body);
    if (!result.success) issues.push(...toValidationIssues(result.error.issues, "body"));
  }
  issues.push(...ruleIssues(key, call.params?.query, call.body, maxPageLimit));
  if (issues.length)
    throw new ValidationError(issues, {
      method: call.op.method,
      path: call.op.path,
      expected: "valid input; nothing was sent",
    });
}
