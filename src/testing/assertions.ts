/**
 * Assertions over `api.requests()` for the rules that matter (Section 3, 5, 8). Framework-free:
 * each throws an `Error` whose message names the rule, the requests by their `x-request-id`, and
 * the section, so vitest, Jest and `node:test` report it as it is.
 */
import { SPEC } from "../limits.ts";
import { isNonIdempotentWrite, isOpenPath } from "./faults.ts";
import { describeRequest, type RecordedRequest } from "./recorded-request.ts";
import { attemptChains, outcome, retryOf } from "./retry-chains.ts";

/** @inline */
type Log = readonly RecordedRequest[];

const label = (r: RecordedRequest): string => `${r.requestId} ${describeRequest(r)}`;

/** The reads that tell whether a write of Section 3 rule 3 took effect: the event's campaigns, or the setup. */
function isCheckOf(write: RecordedRequest): (r: RecordedRequest) => boolean {
  if (write.path !== "/campaigns/") return (r) => r.method === "GET" && r.path === write.path;
  const eid = write.query.eid?.[0];
  return (r) => {
    const match = /^\/events\/([^/]+)\/campaigns$/.exec(r.path);
    return r.method === "GET" && !!match?.[1] && (eid === undefined || decodeURIComponent(match[1]) === eid);
  };
}

/**
 * Section 3 rule 3: POST /campaigns/ and POST /setup_processes/{eid} are not idempotent; after a
 * failure (a 429, a 5xx, a lost answer) the caller checks whether the earlier call succeeded before
 * repeating it. Throws when the same write was sent again by the same client (the same
 * `x-mock-tag`, or none) with no read of its result in between.
 */
export function expectNoBlindRepeat(requests: Log): void {
  requests.forEach((write, i) => {
    if (!isNonIdempotentWrite(write.method, write.path)) return;
    const key = describeRequest(write);
    const j = requests.findIndex(
      (r, k) => k > i && r.tag === write.tag && describeRequest(r) === key && r.method === write.method,
    );
    if (j < 0) return;
    const isCheck = isCheckOf(write);
    if (requests.slice(i + 1, j).some(isCheck)) return;
    const again = requests[j] as RecordedRequest;
    throw new Error(
      `Blind repeat of a non-idempotent write: ${key} was sent again as ${again.requestId} after ${write.requestId} ` +
        `(${outcome(write)}), with no read of its result in between (${write.path === "/campaigns/" ? "GET /events/{eid}/campaigns" : `GET ${write.path}`}). ` +
        "Section 3 rule 3: check whether the earlier call succeeded before repeating the write.",
    );
  });
}

/** Section 8.4: at most `limit` calls in flight at once (8; 4 once 429s occur). */
export function expectConcurrencyAtMost(requests: Log, limit: number): void {
  const edges = requests.flatMap((r) => [
    { at: r.startedAt, start: true, r },
    { at: r.endedAt ?? Number.POSITIVE_INFINITY, start: false, r },
  ]);
  // At the same instant an end comes before a start: a slot handed over is not two in flight.
  edges.sort((a, b) => a.at - b.at || Number(a.start) - Number(b.start));
  const inFlight = new Set<RecordedRequest>();
  for (const edge of edges) {
    if (!edge.start) {
      inFlight.delete(edge.r);
      continue;
    }
    inFlight.add(edge.r);
    if (inFlight.size > limit) {
      const shown = [...inFlight].slice(0, 12).map(label).join(", ");
      throw new Error(
        `${inFlight.size} requests were in flight at once, more than ${limit}: ${shown}${inFlight.size > 12 ? ", …" : ""}. ` +
          "Section 8.4: 8 concurrent calls, 4 if 429s occur.",
      );
    }
  }
}

/** Why a request's partner header is wrong, or undefined when it is right. */
function partnerFault(r: RecordedRequest, partnerId: string | undefined): string | undefined {
  if (isOpenPath(r.path)) return undefined;
  if (r.partner === undefined) return "no header";
  if (partnerId !== undefined && r.partner !== partnerId) return `"${r.partner}"`;
  if (r.tokenPartners && !r.tokenPartners.includes(r.partner))
    return `"${r.partner}"; the token belongs to ${r.tokenPartners.join(", ") || "no partner"}`;
  return undefined;
}

/**
 * Section 5.5: `X-Preferred-Partner-Id` on every authenticated call (all but /auth, /auth/refresh_token
 * and /status/), equal to `partnerId` when given, and always one of the partners the request's token
 * belongs to when the mock minted the token (its IdToken's groups, Section 5.3).
 */
export function expectPartnerHeaderOnEvery(requests: Log, partnerId?: string): void {
  const wrong = requests.flatMap((r) => {
    const fault = partnerFault(r, partnerId);
    return fault ? [`${label(r)} (${fault})`] : [];
  });
  if (wrong.length === 0) return;
  throw new Error(
    `${wrong.length} of ${requests.length} requests came without the partner header${partnerId ? ` "${partnerId}"` : ""}: ` +
      `${wrong.slice(0, 5).join(", ")}${wrong.length > 5 ? ", …" : ""}. Section 5.5: X-Preferred-Partner-Id is required on every ` +
      "authenticated call; a missing or wrong one yields 403.",
  );
}

/** The least waits {@link expectSpacedRetries} asks for. */
export interface SpacingOptions {
  /**
   * Least wait before repeating a call after a 5xx or a lost answer. @default 350 (Section 8.3's
   * backoff base of 500 ms, less its jitter of up to 30 %)
   */
  minDelayMs?: number;
  /** Least wait after a 429 without Retry-After. @default 5000 (Section 8.3: wait 5 to 10 s) */
  afterRateLimitMs?: number;
}

/**
 * Section 8.3: a call repeated after a 429, a 5xx or a lost answer waits first — at least the
 * backoff base (500 ms) less its jitter (30 %), and 5 s after a 429 without Retry-After. Lower both when the client under
 * test was given lower retry options. A repeat is the same request from the same client: the same
 * `x-mock-tag` (or none), so the first requests of two tagged processes are never taken for a retry.
 */
export function expectSpacedRetries(requests: Log, options: SpacingOptions = {}): void {
  const { minDelayMs = SPEC.backoffBaseMs * (1 - SPEC.backoffJitter), afterRateLimitMs = SPEC.rateLimitWaitMinMs } =
    options;
  for (const failed of requests) {
    const retry = retryOf(requests, failed);
    if (!retry || failed.endedAt === undefined) continue;
    const least = failed.status === 429 ? afterRateLimitMs : minDelayMs;
    const gap = retry.startedAt - failed.endedAt;
    if (gap < least) {
      throw new Error(
        `${label(retry)} was sent ${Math.max(0, Math.floor(gap))} ms after ${failed.requestId} (${outcome(failed)}); ` +
          `at least ${least} ms expected. Section 8.3: exponential backoff from 500 ms, jitter up to 30 %; after a 429 without ` +
          "Retry-After wait 5 to 10 s.",
      );
    }
  }
}

/** Section 8.2: no more than `limit` attempts of one call (5 recommended). */
export function expectAttemptsAtMost(requests: Log, limit = 5): void {
  for (const chain of attemptChains(requests)) {
    if (chain.length > limit) {
      throw new Error(
        `${describeRequest(chain[0] as RecordedRequest)} was attempted ${chain.length} times in a row ` +
          `(${chain.map((r) => `${r.requestId}: ${outcome(r)}`).join(", ")}), more than ${limit}. ` +
          "Section 8.2: no more than 5 attempts.",
      );
    }
  }
}
