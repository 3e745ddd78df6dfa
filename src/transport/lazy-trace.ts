/**
 * The trace policies (trace-policy.ts) behind a dynamic import, as the metrics are
 * (lazy-metrics.ts): only a client given a `tracer` loads them, on its first call, so they stay
 * out of what every other app loads for its first calls. A failed import fails that call and is
 * tried again by the next.
 */
import type { Policy } from "./policy.ts";
import type { TraceDeps } from "./trace-policy.ts";

/** The span of the whole call, placed before the retry policy, and the span of each attempt, inside it. */
export interface TracePolicies {
  readonly call: Policy;
  readonly attempt: Policy;
}

export function lazyTrace(deps: TraceDeps): TracePolicies {
  let loaded: TracePolicies | undefined;
  let loading: Promise<TracePolicies> | undefined;
  const load = (): Promise<TracePolicies> => {
    loading ??= import("./trace-policy.ts").then(
      (m) => {
        loaded = { call: m.traceCallPolicy(deps), attempt: m.traceAttemptPolicy(deps) };
        return loaded;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const policy =
    (pick: (p: TracePolicies) => Policy): Policy =>
    (attempt, ctx, next) =>
      loaded ? pick(loaded)(attempt, ctx, next) : load().then((p) => pick(p)(attempt, ctx, next));
  return { call: policy((p) => p.call), attempt: policy((p) => p.attempt) };
}
