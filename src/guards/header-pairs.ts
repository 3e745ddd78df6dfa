/**
 * A call's `headers` as the Fetch standard's [name, value] pairs, which openapi-fetch's types
 * accept but its `mergeHeaders` reads with Object.entries (each pair would be sent as a header named
 * by its index): each pair is checked as a header is (request-values.ts), and call/send.ts hands
 * the pairs to openapi-fetch as a Headers. Loaded with the engine: only a call has pairs.
 */
import type { ValidationIssue } from "../errors/validation-error.ts";
import { headerIssues, headerNameIssue, headerScalarIssue } from "./request-values.ts";

/** The issues of a call's `headers`: pairs, or what {@link headerIssues} takes. */
export function callHeaderIssues(headers: unknown): ValidationIssue[] {
  if (!Array.isArray(headers)) return headerIssues(headers, "headers");
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
