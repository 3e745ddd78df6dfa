/**
 * What the API specification leaves undocumented, and what this client assumes for each — in one
 * place, so that a correction is a one-line change here (or an option, where named). docs/SPECIFICATION-GAPS.md
 * mirrors this file. Request-side assumptions (query parameter names of the
 * query-string writes, the toggles' method, the /task method) live in openapi/overlays/10-drift.
 */

import { isRecord } from "./internal/is-record.ts";

type Json = unknown;

/** Section 2: sign-in returns AccessToken, IdToken, RefreshToken. Section 5 gap: the refresh
 * response's shape is not shown — we accept any of the same three names in it. */
export const TOKEN_FIELDS = Object.freeze({ access: "AccessToken", id: "IdToken", refresh: "RefreshToken" } as const);

/** Section 5.3: the groups claim carries an identity-provider prefix that is omitted
 * ("<prefix>:groups"). We accept `groups` and any `<prefix>:groups`, and return every such claim:
 * the partner is chosen from all of them together, so nothing depends on the order of the token's
 * keys (two claims naming different partners are ambiguous). */
export function groupsClaims(claims: Record<string, Json>): Array<{ claim: string; groups: string[] }> {
  // An identity provider's token may carry hundreds of thousands of groups: no copies of them.
  const out: Array<{ claim: string; groups: string[] }> = [];
  for (const claim of Object.keys(claims)) {
    if (claim !== "groups" && !claim.endsWith(":groups")) continue;
    const value = claims[claim];
    const groups = Array.isArray(value)
      ? // The claim's own array when it holds only strings (the usual case): no copy of it.
        value.every(isString)
        ? (value as string[])
        : (value.filter(isString) as string[])
      : typeof value === "string"
        ? value.split(/[\s,]+/).filter(Boolean)
        : [];
    out.push({ claim, groups });
  }
  return out;
}

const isString = (v: Json): v is string => typeof v === "string";

/** Section 2: partner ids are `partner-id-<slug>`, or a short letter prefix followed by digits
 * whose prefix is not documented — pass `partnerIdPatterns` to the client to accept that form. */
export const PARTNER_ID_PATTERN = /^partner-id-[a-z0-9][a-z0-9_-]*$/i;

/** Section 7: "Error body shape: not shown." We look for a dotted `error.*` code in the body
 * itself, or in its `code`, `error`, `message`, `detail` or `error_code` fields, and in those
 * fields of any object found there, depth first in that field order. */
export function errorCodeOf(body: Json): string | undefined {
  // Depth first in field order, over an explicit stack: a server's body may nest without limit.
  const stack: Json[] = [body];
  const seen = new WeakSet<object>();
  for (let node = stack.pop(); node !== undefined || stack.length > 0; node = stack.pop()) {
    if (isErrorCode(node)) return node;
    if (!isRecord(node) || seen.has(node)) continue;
    seen.add(node);
    for (let i = ERROR_CODE_FIELDS.length - 1; i >= 0; i--) {
      const v = node[ERROR_CODE_FIELDS[i] as string];
      if (isErrorCode(v) || isRecord(v)) stack.push(v);
    }
  }
  return undefined;
}

const ERROR_CODE_FIELDS = ["code", "error", "message", "detail", "error_code"];
// Each segment starts with its own dot, so a string is split into segments one way only: linear.
const isErrorCode = (v: Json): v is string => typeof v === "string" && /^error(\.[A-Za-z0-9_-]+)+$/.test(v);

/** Section 3: boost "returns a boost task id"; its field is not shown. We take a bare string
 * body, or the first string/number among `task_id`, `boost_task_id`, `taskId`, `id`. */
export function boostTaskIdOf(body: Json): string | undefined {
  if (typeof body === "string" && body.trim()) return body.trim();
  if (!isRecord(body)) return undefined;
  for (const key of ["task_id", "boost_task_id", "taskId", "id"]) {
    const v = body[key];
    if (typeof v === "string" || typeof v === "number") return String(v);
  }
  return undefined;
}

/** Section 3: a setup "has a draft and a published form", not described. We treat a setup body
 * as published when its `status`, `state` or `setup_status` field says PUBLISHED. */
export function isPublishedForm(body: Json): boolean {
  if (!isRecord(body)) return false;
  return ["status", "state", "setup_status"].some(
    (k) => typeof body[k] === "string" && (body[k] as string).toUpperCase() === "PUBLISHED",
  );
}

/** GET /partners/: "whether one record or a list is returned is not shown" — always a list here. */
export function partnersOf(body: Json): unknown[] {
  if (Array.isArray(body)) return body;
  return body === undefined || body === null ? [] : [body];
}

/** Section 2: the event list is `{ items: [...] }`; other lists' shapes are not shown. We take a
 * bare array, or the `items` array of an object. */
export function pageItemsOf(body: Json): unknown[] {
  if (Array.isArray(body)) return body;
  if (isRecord(body) && Array.isArray(body.items)) return body.items;
  return [];
}

/** Section 2: benchmark fields are not shown. The benchmark helpers read the values under these
 * keys (a number, a numeric or "85%" string, or an array of them); option `benchmarkFields`. */
export const DEFAULT_BENCHMARK_FIELDS: readonly string[] = Object.freeze(["benchmark", "benchmarks", "values"]);

/** Task and status bodies are not shown. A poll reads `status` or `state` and stops on these
 * (case-insensitive) unless the caller passes its own terminal states. */
export const DEFAULT_TERMINAL_STATES: readonly string[] = Object.freeze([
  "SUCCESS",
  "SUCCEEDED",
  "DONE",
  "COMPLETED",
  "FAILED",
  "FAILURE",
  "ERROR",
  "CANCELLED",
]);

export function statusOf(body: Json): string | undefined {
  if (typeof body === "string") return body;
  if (!isRecord(body)) return undefined;
  for (const key of ["status", "state"]) if (typeof body[key] === "string") return body[key] as string;
  return undefined;
}

/** Section 1.3, 4: POST /campaigns/ takes its parameters in the query string, and their names are
 * not shown. The mock of `@audience-intelligence/client/testing` assumes the event is `eid` and the
 * campaign's name `name`: it lists a created campaign under GET /events/{eid}/campaigns, so that a
 * write can be checked before it is repeated (Section 3 rule 3). The client passes any names through. */
export const CREATE_CAMPAIGN_QUERY = Object.freeze({ eid: "eid", name: "name" } as const);
