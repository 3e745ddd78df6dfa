/**
 * A call's query values, checked before anything is sent (see request-values.ts): a `Date` or
 * `Map` value would be dropped in silence, a nested object is a raw TypeError, a cyclic array a
 * RangeError, a lone surrogate a raw URIError. Apart from request-values.ts because only a call
 * runs it: it loads with the engine, not with `createAudienceClient`.
 */
import type { ValidationIssue } from "../errors/validation-error.ts";
import { isPlainObject } from "../internal/is-record.ts";
import { keyField } from "../internal/key-field.ts";
import { hasLoneSurrogate } from "./request-values.ts";

/** One scalar query value: a string of well-formed text, a finite number, a boolean or a bigint. */
function scalarIssue(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
      return hasLoneSurrogate(value) ? "must be well-formed text (it has a lone surrogate)" : undefined;
    case "number":
      return Number.isFinite(value) ? undefined : "must be a finite number";
    case "boolean":
    case "bigint":
      return undefined;
    case "object":
      return value instanceof Date
        ? "must be a string (a Date has no query-string form: pass date.toISOString() or a YYYY-MM-DD string)"
        : "must be a string, number or boolean (objects and collections have no query-string form)";
    default:
      return `must be a string, number or boolean, not a ${typeof value}`;
  }
}

/** A value, or an array of values (repeat style, Section 1.2): no nesting. */
function valueIssues(value: unknown, field: string): ValidationIssue[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) {
    const issues: ValidationIssue[] = [];
    value.forEach((item, i) => {
      if (Array.isArray(item)) issues.push({ field: `${field}.${i}`, message: "must not be an array (no nesting)" });
      else if (item !== undefined && item !== null) {
        const issue = scalarIssue(item);
        if (issue) issues.push({ field: `${field}.${i}`, message: issue });
      }
    });
    return issues;
  }
  const issue = scalarIssue(value);
  return issue ? [{ field, message: issue }] : [];
}

/**
 * The query of a call: each parameter a value or an array of values, or (for the query-string
 * writes, Section 1.3) one plain object of such parameters.
 */
export function queryIssues(query: unknown): ValidationIssue[] {
  if (query === undefined || query === null) return [];
  if (typeof query !== "object" || Array.isArray(query) || !isPlainObject(query))
    return [{ field: "query", message: "must be a plain object" }];
  const issues: ValidationIssue[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (hasLoneSurrogate(name)) issues.push({ field: "query", message: "has a key that is not well-formed text" });
    else if (value !== null && typeof value === "object" && !Array.isArray(value) && isPlainObject(value)) {
      // One push per issue, not push(...): 200 000 bad values overflowed the stack.
      for (const [key, inner] of Object.entries(value))
        for (const i of valueIssues(inner, keyField("query", name, key))) issues.push(i);
    } else for (const i of valueIssues(value, keyField("query", name))) issues.push(i);
  }
  return issues;
}
