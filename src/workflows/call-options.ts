/**
 * One convention for the helpers' last argument: an options object with
 * `signal`, `deadlineMs` and `priority`. A bare AbortSignal is still accepted where a helper took
 * one before, so existing calls keep working.
 */
import { deadlineAt, withDeadline } from "./deadline.ts";

/** The last argument of a one-call helper. */
export interface CallOptions {
  /** Aborting ends the call. */
  signal?: AbortSignal;
  /** The call's deadline, its retry waits included: a wait that would end after it fails at once (`retryAt`). */
  deadlineMs?: number;
  /** `"low"` sends the call in the partner's background lane. */
  priority?: "high" | "low" | "auto";
}

/** What to spread into the helper's call: the signal, the deadline (counted from now), the lane. */
export function callInit(
  options: AbortSignal | CallOptions | undefined,
): { signal?: AbortSignal; priority?: "high" | "low" | "auto" } & ReturnType<typeof withDeadline> {
  if (options === undefined) return {};
  if (typeof AbortSignal !== "undefined" && options instanceof AbortSignal) return { signal: options };
  const { signal, deadlineMs, priority } = options as CallOptions;
  return {
    ...(signal ? { signal } : {}),
    ...withDeadline(deadlineAt(deadlineMs)),
    ...(priority ? { priority } : {}),
  };
}
