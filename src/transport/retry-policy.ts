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
import { SPEC } from "../limits.ts";
import type { ClientConfig, Logger } from "../options.ts";
import { AttemptFailure } from "./failure.ts";
import { type CallContext, firstAttempt, type Next, type Policy, type Reply } from "./policy.ts";
import { worthRefreshing } from "./refresh-after-401.ts";
import { parseRetryAfter } from "./retry-after.ts";
import { decideRetry, type RetryInput } from "./retry-decision.ts";

/** Answers whether a non-idempotent write took effect: its result, "absent" or "unknown". */
export type WriteCheck = (context: CallContext) => Promise<Response | "absent" | "unknown">;

export interface RetryDeps {
  readonly config: ClientConfig;
  readonly logger: Logger;
  readonly redactor: Redactor;
  /** Called after a 401 with the token that was refused; false when nothing can renew it. */
  readonly reauthenticate: (usedToken: string) => Promise<boolean>;
  readonly writeCheck: (context: CallContext) => WriteCheck | undefined;
  readonly random?: () => number;
  /** Wall clock: what an HTTP-date Retry-After is measured against. */
  readonly now?: () => number;
  /** Monotonic clock: the call's deadline. */
  readonly monotonic?: () => number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const IN_FLIGHT_NOTE =
  "the check found no draft, but the attempt ended without an answer and may still be in flight: not repeated (Section 3 rule 3)";

type Outcome =
  | { reply: Reply; response: Response; failure?: undefined }
  | { reply?: undefined; response?: undefined; failure: AttemptFailure };

export function retryPolicy(deps: RetryDeps): Policy {
  const random = deps.random ?? Math.random;
  const now = deps.now ?? Date.now;
  const monotonic = deps.monotonic ?? monotonicNow;
  const sleep = deps.sleep ?? defaultSleep;
  const { retry } = deps.config;
  const give = (ctx: CallContext, outcome: Outcome, ambiguousWrite: boolean): Reply => {
    if (ambiguousWrite) ctx.mayHaveSucceeded = outcome.failure ? outcome.failure.sent : true;
    if (outcome.reply) return outcome.reply;
    const { failure } = outcome;
    throw errorFromFailure(
      {
        kind:
          failure.kind === "timeout" || failure.kind === "deadline"
            ? "timeout"
            : failure.kind === "too-large"
              ? "too-large"
              : "network",
        message: failure.message,
        cause: failure.underlying,
      },
      ctx.record(failure.requestId),
      deps.redactor,
    );
  };

  return async (_attempt, ctx, next) => {
    let reauthenticated = false;
    for (;;) {
      ctx.attempt += 1;
      const outcome = await attempt(ctx, next);
      const { response, failure } = outcome;

      if (
        response &&
        response.status === 401 &&
        ctx.authenticated &&
        !reauthenticated &&
        ctx.tokenUsed &&
        ctx.attempt < retry.maxAttempts &&
        (await worthRefreshing(deps.config.baseUrl.pathname, ctx.url, response))
      ) {
        reauthenticated = true;
        // Nothing can renew it: the 401 is the call's answer, as any HTTP error is.
        if (!(await deps.reauthenticate(ctx.tokenUsed))) {
          ctx.unrenewable = true;
          return outcome.reply;
        }
        deps.logger.info?.("retry after 401: session renewed", {
          method: ctx.method,
          path: ctx.path,
          attempt: ctx.attempt,
        });
        continue;
      }
      const retryable = response !== undefined && SPEC.retryableStatuses.includes(response.status);
      const retryAfter = retryable ? parseRetryAfter(response.headers.get("retry-after"), now()) : undefined;
      if (retryAfter !== undefined) ctx.retryAfterMs = retryAfter;
      const input: RetryInput = {
        policy: ctx.op?.retry ?? defaultRetry(ctx.method),
        attempt: ctx.attempt,
        status: response?.status,
        retryAfterMs: retryAfter,
        failure,
        pollCall: !ctx.transportRetries,
        random,
        msToDeadline: ctx.deadlineAt === undefined ? undefined : ctx.deadlineAt - monotonic(),
      };
      let decision = decideRetry(input, retry);
      if (decision.kind === "check-write") {
        const check = deps.writeCheck(ctx);
        const answer = check ? await check(ctx) : "unknown";
        if (answer instanceof Response) {
          deps.logger.info?.("write found after an ambiguous failure; not repeated", {
            method: ctx.method,
            path: ctx.path,
            attempt: ctx.attempt,
          });
          return { response: answer };
        }
        // "Absent" proves nothing while the attempt may still be in flight: it got no answer (a
        // lost connection, a timeout), so the server may hold it and write after the check.
        const inFlight = failure !== undefined && (failure.kind === "network" || failure.kind === "timeout");
        if (answer === "absent" && inFlight) ctx.writeCheckNote = IN_FLIGHT_NOTE;
        decision =
          answer === "unknown" || inFlight
            ? { kind: "give-up", ambiguousWrite: true }
            : decideRetry({ ...input, writeAbsent: true }, retry);
      }
      if (decision.kind === "answer") return outcome.reply as Reply;
      if (decision.kind === "give-up") {
        // A wait the deadline cut short: the error says when the retry would have been.
        if (decision.retryInMs !== undefined) ctx.retryAt = Date.now() + decision.retryInMs;
        return give(ctx, outcome, decision.ambiguousWrite);
      }
      if (decision.kind !== "retry") return give(ctx, outcome, false);
      const wait = decision.waitMs;

      const reason = response ? `HTTP ${response.status}` : failure.message;
      deps.logger.info?.("retrying", {
        method: ctx.method,
        path: ctx.path,
        attempt: ctx.attempt,
        nextAttempt: ctx.attempt + 1,
        waitMs: Math.round(wait),
        reason,
      });
      await response?.body?.cancel().catch(() => undefined);
      ctx.retryWaitMs = wait;
      try {
        await sleep(wait, ctx.signal);
      } catch (error) {
        // The deadline passed during the wait; a caller's abort goes to the caller as it is.
        if (error instanceof AttemptFailure) return give(ctx, { failure: error }, false);
        throw error;
      }
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
