/**
 * Retries (Section 8.2–8.3, Section 3 rule 3): at most `maxAttempts` attempts; 429, 500, 502, 503,
 * 504, network errors and attempt timeouts are retryable; a 401 on an authenticated call refreshes
 * once and replays. Whether a failure after sending may be repeated is the operation's `retry`
 * policy from the description (x-retry): `repeatable`, `check-first` (ask the API whether the
 * write took effect) or `never` (fail, saying the write may have happened).
 *
 * Failures another attempt cannot change (the call's deadline, a refused redirect, a body past the
 * size limit) end the call at once. A wait that would end after the deadline is not started.
 */
import { defaultRetry } from "../../generated/operations.ts";
import { errorFromFailure } from "../errors/from-failure.ts";
import { monotonicNow } from "../internal/clock.ts";
import type { Redactor } from "../internal/redact.ts";
import { sleep as defaultSleep } from "../internal/sleep.ts";
import type { ClientConfig, Logger } from "../options.ts";
import { AttemptFailure } from "./failure.ts";
import { type CallContext, firstAttempt, type Next, type Policy, type Reply } from "./policy.ts";
import { worthRefreshing } from "./refresh-after-401.ts";
import { decideRetry, isRetryableStatus, type RetryDecision, type RetryInput } from "./retry-decision.ts";

/** Answers whether a non-idempotent write took effect: its result, "absent" or "unknown". */
export type WriteCheck = (context: CallContext) => Promise<Response | "absent" | "unknown">;

/** What the retry policy reads: its options, not the whole configuration. */
export interface RetryDeps {
  /** The `retry` option, normalized. */
  readonly retry: ClientConfig["retry"];
  /** The path of the `baseUrl` option (a 401 worth a refresh is judged on the path under it). */
  readonly basePath: string;
  readonly logger: Logger;
  readonly redactor: Redactor;
  /**
   * Called after a 401 with the token that was refused and the 401's x-request-id: true once
   * renewed, else why nothing could renew it (the 401 is then the call's answer).
   */
  readonly reauthenticate: (usedToken: string, requestId: string | null) => Promise<true | string>;
  readonly writeCheck: (context: CallContext) => WriteCheck | undefined;
  readonly random?: () => number;
  /** Monotonic clock: the call's deadline. */
  readonly monotonic?: () => number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const IN_FLIGHT_NOTE =
  "the check found no draft, but the attempt ended without an answer and may still be in flight: not repeated (Section 3 rule 3)";

type Outcome =
  | { reply: Reply; response: Response; failure?: undefined }
  | { reply?: undefined; response?: undefined; failure: AttemptFailure };

/** The retry policy with its dependencies filled: what each of its steps reads. */
interface Retrier extends RetryDeps {
  readonly random: () => number;
  readonly monotonic: () => number;
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export function retryPolicy(deps: RetryDeps): Policy {
  const r: Retrier = {
    ...deps,
    random: deps.random ?? Math.random,
    monotonic: deps.monotonic ?? monotonicNow,
    sleep: deps.sleep ?? defaultSleep,
  };
  return async (_attempt, ctx, next) => {
    let reauthenticated = false;
    for (;;) {
      ctx.attempt += 1;
      const outcome = await attempt(ctx, next);
      const { response } = outcome;
      // A status no retry concerns (not retryable, not a 401) is the answer: nothing to decide.
      if (response !== undefined && response.status !== 401 && !isRetryableStatus(response.status))
        return outcome.reply;
      if (response?.status === 401 && !reauthenticated && (await worthRenewing(r, ctx, response))) {
        reauthenticated = true;
        // Nothing can renew it: the 401 is the call's answer, as any HTTP error is.
        if (!(await renewed(r, ctx, response))) return outcome.reply as Reply;
        continue;
      }
      const decided = await decide(r, ctx, outcome);
      if (decided instanceof Response) return { response: decided };
      if (decided.kind === "answer") return outcome.reply as Reply;
      if (decided.kind === "give-up") {
        // A wait the deadline cut short: the error says when the retry would have been.
        if (decided.retryInMs !== undefined) ctx.retryAt = Date.now() + decided.retryInMs;
        return give(r, ctx, outcome, decided.ambiguousWrite);
      }
      if (decided.kind !== "retry") return give(r, ctx, outcome, false);
      const failed = await waitToRetry(r, ctx, outcome, decided.waitMs);
      if (failed) return give(r, ctx, { failure: failed }, false);
    }
  };
}

async function attempt(ctx: CallContext, next: Next): Promise<Outcome> {
  try {
    const reply = await next(firstAttempt(ctx), ctx);
    return { reply, response: reply.response };
  } catch (error) {
    if (error instanceof AttemptFailure) return { failure: error };
    throw error; // the caller's abort, or a bug: never retried
  }
}

/** A 401 on an authenticated call is worth one refresh and replay, with an attempt left for it. */
async function worthRenewing(r: Retrier, ctx: CallContext, response: Response): Promise<boolean> {
  if (!ctx.authenticated || !ctx.tokenUsed || ctx.attempt >= r.retry.maxAttempts) return false;
  return worthRefreshing(r.basePath, ctx.url, response);
}

/** Renews the refused token; false (and the call marked unrenewable, with why) when nothing can. */
async function renewed(r: Retrier, ctx: CallContext, response: Response): Promise<boolean> {
  const renewal = await r.reauthenticate(ctx.tokenUsed as string, response.headers.get("x-request-id"));
  if (renewal !== true) {
    ctx.unrenewable = renewal;
    return false;
  }
  r.logger.info?.("retry after 401: session renewed", { method: ctx.method, path: ctx.path, attempt: ctx.attempt });
  return true;
}

/**
 * What to do after the attempt (retry-decision.ts), the write check done when the decision asks
 * for one: the write's own response when the check found it.
 */
async function decide(r: Retrier, ctx: CallContext, outcome: Outcome): Promise<RetryDecision | Response> {
  const { response, failure } = outcome;
  // Read once, by the limiter policy, which saw the response first, and handed back with it.
  const retryAfter = outcome.reply?.retryAfterMs;
  if (retryAfter !== undefined) ctx.retryAfterMs = retryAfter;
  const input: RetryInput = {
    policy: ctx.op?.retry ?? defaultRetry(ctx.method),
    attempt: ctx.attempt,
    status: response?.status,
    retryAfterMs: retryAfter,
    failure,
    pollCall: !ctx.transportRetries,
    random: r.random,
    msToDeadline: ctx.deadlineAt === undefined ? undefined : ctx.deadlineAt - r.monotonic(),
  };
  const decision = decideRetry(input, r.retry);
  if (decision.kind !== "check-write") return decision;
  const check = r.writeCheck(ctx);
  const answer = check ? await check(ctx) : "unknown";
  if (answer instanceof Response) {
    r.logger.info?.("write found after an ambiguous failure; not repeated", {
      method: ctx.method,
      path: ctx.path,
      attempt: ctx.attempt,
    });
    return answer;
  }
  // "Absent" proves nothing while the attempt may still be in flight: it got no answer (a
  // lost connection, a timeout), so the server may hold it and write after the check.
  const inFlight = failure !== undefined && (failure.kind === "network" || failure.kind === "timeout");
  if (answer === "absent" && inFlight) ctx.writeCheckNote = IN_FLIGHT_NOTE;
  return answer === "unknown" || inFlight
    ? { kind: "give-up", ambiguousWrite: true }
    : decideRetry({ ...input, writeAbsent: true }, r.retry);
}

/** Logs the retry and waits `wait` ms; the deadline's failure if it passed meanwhile. */
async function waitToRetry(
  r: Retrier,
  ctx: CallContext,
  { response, failure }: Outcome,
  wait: number,
): Promise<AttemptFailure | undefined> {
  r.logger.info?.("retrying", {
    method: ctx.method,
    path: ctx.path,
    attempt: ctx.attempt,
    nextAttempt: ctx.attempt + 1,
    waitMs: Math.round(wait),
    reason: response ? `HTTP ${response.status}` : failure?.message,
  });
  await response?.body?.cancel().catch(() => undefined);
  ctx.retryWaitMs = wait;
  try {
    await r.sleep(wait, ctx.signal);
    return undefined;
  } catch (error) {
    // The deadline passed during the wait; a caller's abort goes to the caller as it is.
    if (error instanceof AttemptFailure) return error;
    throw error;
  }
}

/** The call's end: its response, or the error its failure makes. */
function give(r: Retrier, ctx: CallContext, outcome: Outcome, ambiguousWrite: boolean): Reply {
  if (ambiguousWrite) ctx.mayHaveSucceeded = outcome.failure ? outcome.failure.sent : true;
  if (outcome.reply) return outcome.reply;
  const { failure } = outcome;
  const kind =
    failure.kind === "timeout" || failure.kind === "deadline"
      ? "timeout"
      : failure.kind === "too-large" || failure.kind === "refused"
        ? failure.kind
        : "network";
  throw errorFromFailure(
    { kind, message: failure.message, cause: failure.underlying },
    ctx.record(failure.requestId),
    r.redactor,
  );
}
