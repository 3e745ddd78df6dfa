/**
 * What becomes URL or header text is checked where it enters, before anything is sent. Without this, a lone surrogate in an id or a query value is a raw URIError from
 * encodeURIComponent, a `Date` or `Map` query value is dropped in silence (it has no own
 * entries), a nested object is a raw TypeError and a cyclic array a RangeError, and a header value
 * outside Latin-1 is a raw TypeError quoting the value. Each is a `ValidationError` issue naming
 * the field, without the value.
 */
import type { ValidationIssue } from "../errors/validation-error.ts";
import { headerValueIssue } from "./header-value.ts";

/** A UTF-16 surrogate without its pair: not text, and not encodable in a URL. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const hasLoneSurrogate = (text: string): boolean => LONE_SURROGATE.test(text);

const isPlainObject = (value: object): boolean => {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

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
    const field = `query.${name}`;
    if (hasLoneSurrogate(name)) issues.push({ field: "query", message: "has a key that is not well-formed text" });
    else if (value !== null && typeof value === "object" && !Array.isArray(value) && isPlainObject(value)) {
      // One push per issue, not push(...): 200 000 bad values overflowed the stack.
      for (const [key, inner] of Object.entries(value))
        for (const i of valueIssues(inner, `${field}.${key}`)) issues.push(i);
    } else for (const i of valueIssues(value, field)) issues.push(i);
  }
  return issues;
}

/**
 * One header value as openapi-fetch's `mergeHeaders` takes it: a string, number or boolean becomes
 * its text (`Headers.set` stringifies it), so the text is what must be header text.
 */
function headerScalarIssue(value: unknown): string | undefined {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
    return headerValueIssue(String(value));
  return "is not a string, number or boolean";
}

/**
 * Header values a caller passes (`headers`, `params.header`), as openapi-fetch's types accept them:
 * a scalar, an array of scalars (each appended, so Headers joins them with ", "), or
 * `undefined`/`null` (skipped; null deletes the header). The text must be header text (CR, LF and
 * non-Latin-1 stay refused: Fetch would throw a raw TypeError quoting the value).
 */
export function headerIssues(headers: unknown, field: string): ValidationIssue[] {
  if (headers === undefined || headers === null || headers instanceof Headers) return [];
  const entries: Array<[string, unknown]> = Array.isArray(headers)
    ? (headers as Array<[string, unknown]>)
    : typeof headers === "object"
      ? Object.entries(headers)
      : [];
  const issues: ValidationIssue[] = [];
  for (const [name, value] of entries) {
    if (value === undefined || value === null) continue;
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) {
      const issue = headerScalarIssue(item);
      if (!issue) continue;
      issues.push({ field: `${field}.${name}`, message: `must be header text: it ${issue}` });
      break;
    }
  }
  return issues;
}
