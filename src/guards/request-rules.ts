/**
 * Rules the description cannot express, on top of the generated schemas (Section 2, 8.5):
 * date ranges in order, page sizes within the cap, and an eid in a query or body held to the same
 * rules as an eid in the path. (Budgets above zero are a schema constraint of the local overlay.)
 */
import { isCalendarDate } from "../../generated/formats.ts";
import type { ValidationIssue } from "../errors/validation-error.ts";
import { isRecord } from "../internal/is-record.ts";
import { forEachSentParam } from "../internal/query-serializer.ts";
import { idIssues } from "./path-params.ts";

// Only real calendar dates are compared: the generated schema already reports the others, once.
function dateOrder(body: unknown, from: string, to: string, prefix: string): ValidationIssue[] {
  if (!isRecord(body) || !isCalendarDate(body[from]) || !isCalendarDate(body[to])) return [];
  return (body[from] as string) > (body[to] as string)
    ? [{ field: `${prefix}.${to}`, message: `must not be before ${from}` }]
    : [];
}

/**
 * An eid is the same identifier wherever it goes (Section 2): the ingest body, the edit of a
 * published cluster and the XLSX ingest's query carry one too, and a whitespace, line break or
 * 1 MB value there is as wrong as in a path. Only non-empty strings: the schema reports the rest.
 */
function eidIssues(container: unknown, prefix: string): ValidationIssue[] {
  const eid = isRecord(container) ? container.eid : undefined;
  return typeof eid === "string" && eid !== "" ? idIssues(eid, `${prefix}.eid`) : [];
}

/** {@link eidIssues} for a query: every `eid` it is sent with, a parameter object's too (the schema refuses a repeated one). */
function queryEidIssues(query: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (isRecord(query))
    forEachSentParam(query, (key, value, field) => {
      if (key === "eid" && typeof value === "string" && value !== "") issues.push(...idIssues(value, field));
    });
  return issues;
}

/**
 * Section 8.5: bulk reads paginate and "must not ask for limit=10000". Any call's `limit`, on a
 * path of the description or not (raw calls to `/campaigns/` included), given as a number, a
 * numeric string or repeated, is held to the page cap.
 */
export function pageLimitIssues(query: unknown, maxPageLimit: number): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (!isRecord(query)) return issues;
  const over = (v: unknown) =>
    (typeof v === "number" || (typeof v === "string" && v.trim() !== "")) && Number(v) > maxPageLimit;
  // Every `limit` the query is sent with: a parameter object's is sent as one too (Section 1.3).
  forEachSentParam(query, (key, value, field) => {
    if (key === "limit" && (Array.isArray(value) ? value : [value]).some(over))
      issues.push({
        field,
        message: `must be at most ${maxPageLimit}: bulk reads paginate, and large pages such as limit=10000 are refused by the API's guidance (Section 8.5); page through results instead`,
      });
  });
  return issues;
}

export function ruleIssues(operation: string, query: unknown, body: unknown, maxPageLimit: number): ValidationIssue[] {
  const issues: ValidationIssue[] = pageLimitIssues(query, maxPageLimit);
  if (operation === "POST /setup_processes/{eid}" || operation === "PUT /setup_processes/{eid}") {
    issues.push(...dateOrder(body, "start_date", "end_date", "body"));
  }
  if (operation === "POST /ingest/transaction_summary")
    issues.push(...dateOrder(body, "from", "to", "body"), ...eidIssues(body, "body"));
  if (operation === "POST /campaigns_setup") issues.push(...eidIssues(body, "body"));
  if (operation === "POST /ingest/transaction_summary/from_excel") issues.push(...queryEidIssues(query));
  return issues;
}
