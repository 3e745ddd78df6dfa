/**
 * The trace policies (trace-policy.ts) behind a dynamic import, as the metrics are
 * (lazy-metrics.ts): only a client given a `tracer` loads them, on its first call, so they stay
 * out of what every other app loads for its first calls. Tracing only observes: a failed import
 * leaves that call untraced (never failed, as OpenTelemetry's API never fails the code it
 * observes), is tried again by the next call, and is reported once.
 */
import { warnOnce } from "../internal/observed-logger.ts";
import type { Policy } from "./policy.ts";
import type { TraceDeps } from "./trace-policy.ts";

/** The span of the whole call, placed before the retry policy, and the span of each attempt, inside it. */
export interface TracePolicies {
  readonly call: Policy;
  readonly attempt: Policy;
}

export function lazyTrace(
  given: Omit<TraceDeps, "fault">,
  warn: (message: string, error: unknown) => void,
): TracePolicies {
  const deps: TraceDeps = {
    ...given,
    fault: warnOnce(warn, "the tracer threw; calls go on, untraced where it failed"),
  };
  const unloadable = warnOnce(warn, "the tracing code could not be loaded; tried again later");
  let loaded: TracePolicies | undefined;
  let loading: Promise<TracePolicies | undefined> | undefined;
  const load = (): Promise<TracePolicies | undefined> =>
    (loading ??= import("./trace-policy.ts").then(
      (m) => (loaded = { call: m.traceCallPolicy(deps), attempt: m.traceAttemptPolicy(deps) }),
      (error: unknown) => {
        loading = undefined;
        unloadable(error);
        return undefined;
      },
    ));
  const policy =
    (pick: (p: TracePolicies) => Policy): Policy =>
    (attempt, ctx, next) =>
      loaded
        ? pick(loaded)(attempt, ctx, next)
        : load().then((p) => (p ? pick(p)(attempt, ctx, next) : next(attempt, ctx)));
  return { call: policy((p) => p.call), attempt: policy((p) => p.attempt) };
}
