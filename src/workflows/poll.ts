import { DEFAULT_TERMINAL_STATES, statusOf } from "../assumptions.ts";
import { TimeoutError } from "../errors/network-error.ts";
import { ValidationError, type ValidationIssue } from "../errors/validation-error.ts";
import { signalIssues } from "../internal/abort-signal.ts";
import { abortable } from "../internal/abortable.ts";
import { monotonicNow } from "../internal/clock.ts";
import { sleep as defaultSleep } from "../internal/sleep.ts";
import { MAX_TIMER_MS } from "../internal/timers.ts";
import { SPEC } from "../limits.ts";
import { deadlineAt, pastDeadline } from "./deadline.ts";

/** Options of {@link poll}. */
export interface PollOptions<T> {
  /** Fetches the current status once. Receives the signal that ends the poll. */
  readonly fetchStatus: (signal?: AbortSignal) => Promise<T>;
  /** True when `value` is final and polling should stop. */
  readonly isDone: (value: T) => boolean;
  /** Wait between the first two fetches. */
  readonly intervalMs: number;
  /**
   * Each wait is the previous one times this.
   * @default 1 (a fixed interval)
   */
  readonly backoff?: number;
  /**
   * Ceiling of the wait as it grows.
   * @default no ceiling
   */
  readonly maxIntervalMs?: number;
  /**
   * Floor of every wait; a shorter interval is raised to it (Section 8.5: status polls at 3 s or
   * longer). Wins over `maxIntervalMs`.
   * @default 0
   */
  readonly minIntervalMs?: number;
  /**
   * For a failed fetch: the least wait before fetching again, or undefined when the failure is
   * final (the poll rejects with it). A retried fetch waits the poll's next interval, or longer.
   * @default every failure is final
   */
  readonly retryDelayMs?: (error: unknown) => number | undefined;
  /**
   * Failed fetches in a row after which the poll gives up with the last failure.
   * @default SPEC.maxAttempts (Section 8.2: 5)
   */
  readonly maxFailures?: number;
  /** Overall deadline, fetches included; passing it rejects with {@link TimeoutError}. */
  readonly timeoutMs?: number;
  /**
   * One deadline for the whole poll, its fetches and waits included: a wait that would end after
   * it is not slept through, the poll rejects at once with a {@link TimeoutError} whose `retryAt`
   * says when the next fetch would have been. Passing it during a fetch rejects as `timeoutMs` does.
   */
  readonly deadlineMs?: number;
  /** Aborting rejects the poll with the signal's reason. */
  readonly signal?: AbortSignal;
  /**
   * How to wait. Tests inject a fake.
   * @default an abortable `setTimeout`
   */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Fetches a status until `isDone` says it is final, and resolves with that last value. Fetches at
 * once, then after each wait: `intervalMs`, growing by `backoff` up to `maxIntervalMs`, never
 * below `minIntervalMs`. Takes only "something that can fetch the status", not the client.
 *
 * @example
 * const task = await poll({
 *   ...pollDefaults.task,
 *   fetchStatus: (signal) => api.GET("/task", { params: { query: { task_id } }, signal }).then((r) => r.data),
 *   isDone: isTerminalStatus(),
 *   timeoutMs: 5 * 60_000,
 * });
 */
export async function poll<T>(options: PollOptions<T>): Promise<T> {
  if (typeof options !== "object" || options === null)
    throw new ValidationError([{ field: "options", message: "must be an object with fetchStatus and isDone" }]);
  const {
    fetchStatus,
    isDone,
    intervalMs,
    backoff = 1,
    maxIntervalMs = Number.POSITIVE_INFINITY,
    minIntervalMs = 0,
    retryDelayMs,
    maxFailures = SPEC.maxAttempts,
  } = options;
  const wait = options.sleep ?? defaultSleep;
  // From JavaScript these may be missing; they would fail later as a bare "is not a function".
  for (const field of ["fetchStatus", "isDone"] as const) {
    if (typeof options[field] !== "function") throw new ValidationError([{ field, message: "must be a function" }]);
  }
  checkTiming(options);
  const at = deadlineAt(options.deadlineMs);

  const { signal, dispose } = pollSignal(
    at === undefined
      ? options
      : { ...options, timeoutMs: Math.min(options.timeoutMs ?? Infinity, at - monotonicNow()) },
  );
  try {
    let failures = 0;
    for (let interval = intervalMs; ; interval *= backoff) {
      signal.throwIfAborted();
      let least = 0;
      try {
        const value = await abortable(fetchStatus(signal), signal);
        if (isDone(value)) return value;
        failures = 0;
      } catch (error) {
        // The poll's own schedule retries a failed fetch (Section 8.5), never faster than it.
        const retryAfter = signal.aborted ? undefined : retryDelayMs?.(error);
        if (retryAfter === undefined || ++failures >= maxFailures) throw error;
        least = retryAfter;
      }
      const delay = Math.max(least, minIntervalMs, Math.min(interval, maxIntervalMs, MAX_TIMER_MS));
      const late = pastDeadline(at, delay, "the poll gave up");
      if (late) throw late;
      await abortable(wait(Math.min(delay, MAX_TIMER_MS), signal), signal);
    }
  } finally {
    dispose();
  }
}

/**
 * Section 8.5 says task polls "use about 2 s with backoff" but gives neither factor nor ceiling:
 * 1.5 is our choice, and the ceiling is the Section 8.3 backoff cap.
 */
const TASK_POLL_BACKOFF = 1.5;
const TASK_POLL_MAX_INTERVAL_MS = SPEC.backoffCapMs;

/**
 * Timing for the two kinds of poll of Section 8.5, each spread into {@link poll}:
 * `task` from about 2 s, growing by 1.5 up to 30 s; `status` every 3 s, the floor also raising a
 * faster `intervalMs`.
 *
 * @example
 * await poll({ ...pollDefaults.task, fetchStatus, isDone: isTerminalStatus() });
 */
export const pollDefaults = Object.freeze({
  /** Task polls (Section 8.5): from about 2 s, growing by 1.5 up to 30 s. */
  task: Object.freeze({
    /** First wait: about 2 s (Section 8.5). */
    intervalMs: SPEC.taskPollIntervalMs,
    /** Each wait is the previous one times 1.5. */
    backoff: TASK_POLL_BACKOFF,
    /** Waits stop growing at the Section 8.3 backoff cap (30 s). */
    maxIntervalMs: TASK_POLL_MAX_INTERVAL_MS,
  } satisfies Partial<PollOptions<unknown>>),
  /** Status polls (Section 8.5): every 3 s or slower. */
  status: Object.freeze({
    /** Wait between polls: 3 s (Section 8.5). */
    intervalMs: SPEC.minStatusPollIntervalMs,
    /** Floor under any wait, a caller's `intervalMs` included: 3 s (Section 8.5). */
    minIntervalMs: SPEC.minStatusPollIntervalMs,
  } satisfies Partial<PollOptions<unknown>>),
});

/**
 * An `isDone` for task and status bodies, whose shape is not documented: true when the body's
 * `status` or `state` (or the body itself, if a string) is one of `terminalStates`, ignoring case.
 *
 * @example
 * isTerminalStatus()({ status: "done" }); // true
 * isTerminalStatus(["READY"])({ state: "pending" }); // false
 */
export function isTerminalStatus(
  terminalStates: readonly string[] = DEFAULT_TERMINAL_STATES,
): (body: unknown) => boolean {
  // A string or a non-string entry (from JavaScript) would otherwise crash in toUpperCase.
  if (!Array.isArray(terminalStates) || !terminalStates.every((s) => typeof s === "string")) {
    throw new ValidationError([{ field: "terminalStates", message: "must be an array of strings" }]);
  }
  const terminal = new Set(terminalStates.map((s) => s.toUpperCase()));
  return (body) => {
    const status = statusOf(body);
    return status !== undefined && terminal.has(status.toUpperCase());
  };
}

type Timing = Pick<
  PollOptions<unknown>,
  "intervalMs" | "backoff" | "maxIntervalMs" | "minIntervalMs" | "timeoutMs" | "signal" | "maxFailures"
>;

// A NaN or negative interval would turn the poll into a busy loop against the API, so refuse it.
function checkTiming(options: Timing): void {
  // A signal that is none threw a raw TypeError (`addEventListener` is not a function).
  const issues: ValidationIssue[] = signalIssues(options.signal);
  const check = (field: keyof Timing, ok: boolean, message: string): void => {
    if (!ok) issues.push({ field, message });
  };
  check(
    "intervalMs",
    options.intervalMs >= 0 && Number.isFinite(options.intervalMs),
    "must be a finite number, 0 or more",
  );
  check(
    "backoff",
    options.backoff === undefined || (options.backoff >= 1 && Number.isFinite(options.backoff)),
    "must be a finite number, 1 or more",
  );
  // Infinity is allowed for these: no ceiling, no floor worth the name, no deadline.
  if (options.maxFailures !== undefined && !(Number.isInteger(options.maxFailures) && options.maxFailures >= 1))
    issues.push({ field: "maxFailures", message: "must be a positive integer" });
  for (const field of ["maxIntervalMs", "minIntervalMs", "timeoutMs"] as const) {
    const value = options[field];
    // Typed, not only compared: a timeoutMs of "" compares as 0 and ended the poll at once.
    check(field, value === undefined || (typeof value === "number" && value >= 0), "must be a number, 0 or more");
  }
  if (issues.length > 0) throw new ValidationError(issues);
}

/** One signal for the whole poll: aborted by the caller's signal or by the deadline. */
function pollSignal(options: Timing): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const outer = options.signal;
  const onAbort = (): void => controller.abort(outer?.reason);
  if (outer?.aborted) onAbort();
  else outer?.addEventListener("abort", onAbort, { once: true });
  const { timeoutMs } = options;
  const timer =
    timeoutMs === undefined || timeoutMs > MAX_TIMER_MS
      ? undefined // a deadline beyond the timer range is no deadline in practice
      : setTimeout(
          () => controller.abort(new TimeoutError(`the poll did not finish within ${timeoutMs} ms`)),
          timeoutMs,
        );
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      outer?.removeEventListener("abort", onAbort);
    },
  };
}
