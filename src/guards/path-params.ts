/**
 * Path parameter values that would change the URL's path are refused: empty values, `.` and `..`
 * (encodeURIComponent leaves them as they are) and their percent-encoded forms. Other characters
 * are percent-encoded by openapi-fetch, so `tc` names reach the API URL-encoded, never slugified.
 */
import type { ValidationIssue } from "../errors/validation-error.ts";

const DOTS = /^(\.|%2e){1,2}$/i;

export function pathParamIssues(path: Readonly<Record<string, unknown>> | undefined, names: readonly string[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const name of names) {
    const value = path?.[name];
    const field = `params.path.${name}`;
    if (typeof value === "number" && Number.isFinite(value)) continue;
    if (typeof value !== "string") issues.push({ field, message: "is required and must be a string" });
    else if (value.trim() === "") issues.push({ field, message: "must not be empty" });
    else if (DOTS.test(value)) issues.push({ field, message: "must not be '.' or '..' (it would change the URL's path)" });
    else if (/[\u0000-\u001f\u007f]/.test(value)) issues.push({ field, message: "must not contain control characters (CR, LF, …)" });
  }
  return issues;
}
