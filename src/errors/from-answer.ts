/**
 * The error of a call's answer (errors/from-response.ts maps the status; this adds what the client
 * knows of the call: a setup call the API refused because the setup is published). Loaded with the
 * engine (internal/carry-record.ts), not up front.
 */
import type { CallRecord } from "../internal/call-record.ts";
import type { Masks } from "../internal/masks.ts";
import type { ApiError } from "./api-error.ts";
import { contextOf } from "./audience-error.ts";
import { errorFromResponse } from "./from-response.ts";
import { SetupStateError } from "./setup-state-error.ts";

/** What a setup call refused after publish was for (Section 3 rules 1–2), by method and path. */
const AFTER_PUBLISH: Readonly<Record<string, string>> = {
  "PUT /setup_processes/{eid}": "edit it with POST /campaigns_setup (editPublishedCluster)",
  "POST /setup_processes/{eid}/boost": "it is already published",
  "DELETE /setup_processes/{eid}": "only a draft can be cancelled",
};

/**
 * The error of a call's answer: the status's class, or a {@link SetupStateError} when the call was
 * a setup call the API refused because the setup is published (the setup guards judged the
 * evidence: `record.setupRefused`). Either way the error keeps the API's status, code, body and
 * headers, and the status's class is its `cause`: one cause, one class, whether the call went
 * through `unwrap` or a setup handle, and whether the client refused it before sending.
 */
export function errorFromAnswer(
  response: Response,
  body: unknown,
  redactor: Masks,
  record: Partial<CallRecord> = {},
): ApiError | SetupStateError {
  const error = errorFromResponse(response, body, redactor, record);
  const refused = record.setupRefused;
  const why = AFTER_PUBLISH[`${error.method} ${error.path}`];
  if (!refused || why === undefined) return error;
  const { status, code, body: safeBody, headers } = error;
  const tail = `${code ? ` (${code})` : ""}${error.requestId ? ` [request id ${error.requestId}]` : ""}`;
  return new SetupStateError(
    `${error.method} ${error.path}: HTTP ${status}, setup ${refused.eid} is published: ${why} (Section 3)${tail}`,
    { ...contextOf(error), eid: refused.eid, state: "published", status, code, body: safeBody, headers },
  );
}
