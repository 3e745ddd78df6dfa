/**
 * What becomes URL or header text is checked where it enters, before anything is sent. Without this, a lone surrogate in an id or a query value is a raw URIError from
 * encodeURIComponent, a `Date` or `Map` query value is dropped in silence (it has no own
 * entries), a nested object is a raw TypeError and a cyclic array a RangeError, and a header value
 * outside Latin-1 is a raw TypeError quoting the value. Each is a `ValidationError` issue naming
 * the field, without the value. The query's checks are in query-values.ts (they run only at call
 * time, so they load with the engine; the header checks here also check the `headers` option).
 */
import type { ValidationIssue } from "../errors/validation-error.ts";
import { headerValueIssue } from "./header-value.ts";

/** A UTF-16 surrogate without its pair: not text, and not encodable in a URL. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const hasLoneSurrogate = (text: string): boolean => LONE_SURROGATE.test(text);

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
