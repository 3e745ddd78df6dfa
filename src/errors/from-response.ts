/** The one factory that maps an HTTP error response to its error class. */
import { errorCodeOf } from "../assumptions.ts";
import { type CallRecord, recordOf } from "../internal/call-record.ts";
import type { Redactor } from "../internal/redact.ts";
import {
  ApiError,
  type ApiErrorDetails,
  AuthenticationError,
  NotFoundError,
  PartnerAccessError,
  RateLimitError,
  ServerError,
} from "./api-error.ts";

const WRITE_NOTE = "the write may have happened: check before repeating it (Section 3 rule 3)";

export function errorFromResponse(
  response: Response,
  body: unknown,
  redactor: Redactor,
  fallback?: Partial<CallRecord>,
): ApiError {
  const record = { ...fallback, ...recordOf(response) };
  const status = response.status;
  const safeBody = redactor.value(body);
  const code = errorCodeOf(safeBody);
  // A server may put anything into x-request-id, a token included: it is redacted like the body.
  const header = response.headers.get("x-request-id");
  const requestId = header === null ? record.requestId : redactor.text(header);
  const where = `${record.method ?? "?"} ${record.path ?? "?"}`;
  const tail = `${code ? ` (${code})` : ""}${requestId ? ` [request id ${requestId}]` : ""}`;
  const details: ApiErrorDetails = {
    status,
    code,
    body: safeBody,
    headers: redactor.headers(response.headers),
    requestId,
    method: record.method,
    path: record.path,
    partnerId: record.partnerId,
    environment: record.environment,
    request: record.request,
    attempts: record.attempts,
    mayHaveSucceeded: record.mayHaveSucceeded,
    expected: "a 2xx response",
  };
  const note = record.mayHaveSucceeded ? `; ${WRITE_NOTE}` : "";
  if (status === 401)
    return new AuthenticationError(`${where}: HTTP 401, the access token was refused${tail}`, details);
  if (status === 403) {
    return new PartnerAccessError(
      `${where}: HTTP 403 — the token is valid but X-Preferred-Partner-Id (${record.partnerId ?? "not sent"}) is missing or wrong for it (Section 5.5)${tail}`,
      details,
    );
  }
  if (status === 404) return new NotFoundError(`${where}: HTTP 404, not found${tail}`, details);
  if (status === 429) {
    const wait =
      record.retryAfterMs === undefined ? "" : `; the server asked to wait ${Math.ceil(record.retryAfterMs / 1000)} s`;
    return new RateLimitError(
      `${where}: HTTP 429, rate limited after ${record.attempts ?? 1} attempt(s)${wait}${note}${tail}`,
      { ...details, retryAfterMs: record.retryAfterMs },
    );
  }
  if (status >= 500)
    return new ServerError(`${where}: HTTP ${status} after ${record.attempts ?? 1} attempt(s)${note}${tail}`, details);
  return new ApiError(`${where}: HTTP ${status}${tail}`, details);
}
