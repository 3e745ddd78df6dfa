/**
 * The one factory that maps an HTTP error response to its error class, by status. A call's answer,
 * where the client may know more (a setup call refused because the setup is published), is
 * from-answer.ts `errorFromAnswer`, built on this one (apart so that `unwrap`, loaded up front,
 * carries only this part: a result of the client brings its error from the engine's side).
 */
import { errorCodeOf } from "../assumptions.ts";
import type { CallRecord } from "../internal/call-record.ts";
import type { Masks } from "../internal/masks.ts";
import { isNotForThisToken } from "../internal/not-for-partner-tokens.ts";
import {
  ApiError,
  type ApiErrorDetails,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  NotFoundError,
  PartnerAccessError,
  RateLimitError,
  ServerError,
  UnprocessableEntityError,
} from "./api-error.ts";
import { hiddenRequestIdHint } from "./browser-hints.ts";
import { UNRENEWABLE_TOKEN } from "./unrenewable.ts";

/** The classes of the statuses that have one and no message of their own. */
const BY_STATUS: Readonly<Record<number, typeof ApiError>> = {
  400: BadRequestError,
  409: ConflictError,
  422: UnprocessableEntityError,
};

/** Section 7: the 403 codes of a partner token on an endpoint not for it; no partner header helps. */
const NOT_FOR_THIS_TOKEN = new Set(["error.auth.not_authorized", "error.unauthorized"]);

/** A 401 whose code, on this path, says the endpoint is not for this token (Section 7: by_partner_id). */
function notForToken(record: Partial<CallRecord>, code: string | undefined): boolean {
  if (!record.path) return false;
  let base = "";
  try {
    base = record.environment ? new URL(record.environment).pathname : "";
  } catch {
    // no environment: the path is compared as it is
  }
  const path = base && record.path.startsWith(base) ? record.path.slice(base.length) : record.path;
  return isNotForThisToken(path, code);
}

/**
 * Section 5.5, 7: "valid token, missing or wrong X-Preferred-Partner-Id → HTTP 403", code not
 * given. A 403 is read as that case when it carries no code, or one that names the partner (see
 * docs/SPECIFICATION-GAPS.md); any other code is that code's error, not a PartnerAccessError.
 */
const isPartnerHeaderCase = (code: string | undefined): boolean => code === undefined || /partner/i.test(code);

const WRITE_NOTE = "the write may have happened: check before repeating it (Section 3 rule 3)";

export function errorFromResponse(
  response: Response,
  body: unknown,
  redactor: Masks,
  record: Partial<CallRecord> = {},
): ApiError {
  const status = response.status;
  const safeBody = redactor.value(body);
  const code = errorCodeOf(safeBody);
  // A server may put anything into x-request-id, a token included: it is redacted like the body.
  const header = response.headers.get("x-request-id");
  const requestId = header === null ? record.requestId : redactor.text(header);
  const where = `${record.method ?? "?"} ${record.path ?? "?"}`;
  const tail = `${code ? ` (${code})` : ""}${requestId ? ` [request id ${requestId}]` : hiddenRequestIdHint(record.request?.url)}`;
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
    retryAt: record.retryAt,
    expected: "a 2xx response",
  };
  const checked = record.writeCheckNote ? ` (${record.writeCheckNote})` : "";
  const note = record.mayHaveSucceeded ? `; ${WRITE_NOTE}${checked}` : "";
  if (status === 403 ? code !== undefined && NOT_FOR_THIS_TOKEN.has(code) : status === 401 && notForToken(record, code))
    return new (status === 401 ? AuthenticationError : ApiError)(
      `${where}: HTTP ${status} — this endpoint does not accept the token (${code}); /campaign_results/ and /campaigns/by_partner_id are not for partner tokens (Section 4, 7): use the per-event campaign_results${tail}`,
      details,
    );
  if (status === 401) {
    const why = record.unrenewable ? `${UNRENEWABLE_TOKEN} (${record.unrenewable})` : "the access token was refused";
    return new AuthenticationError(`${where}: HTTP 401, ${why}${tail}`, details);
  }
  if (status === 403 && isPartnerHeaderCase(code)) {
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
      { ...details, retryAfterMs: record.retryAfterMs, rateState: record.rateState },
    );
  }
  if (status >= 500)
    return new ServerError(`${where}: HTTP ${status} after ${record.attempts ?? 1} attempt(s)${note}${tail}`, details);
  return new (BY_STATUS[status] ?? ApiError)(`${where}: HTTP ${status}${tail}`, details);
}
