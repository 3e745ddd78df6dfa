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
export function headerScalarIssue(value: unknown): string | undefined {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
    const issue = headerValueIssue(String(value));
    return issue && `must be header text: it ${issue}`;
  }
  return "must be header text: it is not a string, number or boolean";
}

const NOT_A_NAME = "has a name that is not a header name (RFC 9110, Section 5.6.2: a token)";

/** A header's name, a token (RFC 9110, Section 5.6.2): the runtime's Headers throws a raw TypeError for any other. */
export const headerNameIssue = (name: unknown): string | undefined =>
  typeof name === "string" && /^[\w!#$%&'*+.^`|~-]+$/.test(name) ? undefined : NOT_A_NAME;

/**
 * Header values a caller passes (`headers`, `params.header`), as openapi-fetch's types accept them:
 * a scalar, an array of scalars (each appended, so Headers joins them with ", "), or
 * `undefined`/`null` (skipped; null deletes the header, so its name must still be one). The text
 * must be header text (CR, LF and non-Latin-1 stay refused: Fetch would throw a raw TypeError
 * quoting the value). What is neither a Headers nor a plain object is refused before this is
 * asked (options/transport.ts, header-pairs.ts: openapi-fetch reads an array or a Map with
 * Object.entries, as headers "0", "1"… or none).
 */
export function headerIssues(headers: unknown, field: string): ValidationIssue[] {
  if (headers === undefined || headers === null || headers instanceof Headers) return [];
  const issues: ValidationIssue[] = [];
  for (const [name, value] of typeof headers === "object" ? Object.entries(headers) : []) {
    if (value === undefined) continue;
    let issue = headerNameIssue(name);
    if (!issue && value !== null)
      for (const item of Array.isArray(value) ? value : [value]) issue ??= headerScalarIssue(item);
    // A name that is no token is not repeated: it may be a pasted "Authorization: Bearer …" line.
    if (issue) issues.push({ field: issue === NOT_A_NAME ? field : `${field}.${name}`, message: issue });
  }
  return issues;
}
