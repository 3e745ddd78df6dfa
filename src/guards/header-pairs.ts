/**
 * A call's `headers` as the Fetch standard's [name, value] pairs, which openapi-fetch's types
 * accept but its `mergeHeaders` reads with Object.entries (each pair would be sent as a header named
 * by its index): each pair is checked as a header is (request-values.ts), and call/send.ts hands
 * the pairs to openapi-fetch as a Headers. Loaded with the engine: only a call has pairs.
 */
import type { ValidationIssue } from "../errors/validation-error.ts";
import { isPlainObject } from "../internal/is-record.ts";
import { headerIssues, headerNameIssue, headerScalarIssue } from "./request-values.ts";

/**
 * The issues of a call's `headers` (pairs too) or `params.header`: what {@link headerIssues} takes.
 * An object that is neither a Headers nor a plain object (an array but a call's pairs, a Map,
 * URLSearchParams, another library's Headers) is refused: openapi-fetch reads it with
 * Object.entries, which sent an array's pairs as headers "0", "1"… and dropped a Map's in silence.
 */
export function callHeaderIssues(headers: unknown, field: "headers" | "header"): ValidationIssue[] {
  const pairs = field === "headers" && Array.isArray(headers);
  if (typeof headers === "object" && headers !== null && !(headers instanceof Headers) && !isPlainObject(headers))
    if (!pairs) return [{ field, message: "must be a Headers object or a plain object" }];
  if (!pairs) return headerIssues(headers, field);
  const issues: ValidationIssue[] = [];
  headers.forEach((pair: unknown, i) => {
    const issue =
      Array.isArray(pair) && pair.length === 2
        ? (headerNameIssue(pair[0]) ?? headerScalarIssue(pair[1]))
        : "must be a [name, value] pair";
    if (issue) issues.push({ field: `headers.${i}`, message: issue });
  });
  return issues;
}
