/**
 * The metrics policies (metrics-policy.ts) behind a dynamic import: only a client given a `meter`
 * loads them, on its first call, so they stay out of every other app's initial bundle. The
 * instruments are created once the module is there.
 */
import { warnOnce } from "../internal/observed-logger.ts";
import type { MeterLike } from "../options.ts";
import type { ClientMetrics } from "./metrics-policy.ts";
import type { Policy } from "./policy.ts";

export function lazyMetrics(
  meter: MeterLike,
  environment: URL,
  warn: (message: string, error: unknown) => void,
): ClientMetrics {
  let loaded: ClientMetrics | undefined;
  let loading: Promise<ClientMetrics | undefined> | undefined;
  const fault = warnOnce(warn, "the meter threw; calls go on, unmeasured where it failed");
  const unloadable = warnOnce(warn, "the metrics code could not be loaded; tried again later");
  // Metrics only observe: a module that cannot load leaves calls unmeasured (never failed), is
  // tried again by a later call, and is reported once.
  const load = (): Promise<ClientMetrics | undefined> =>
    (loading ??= import("./metrics-policy.ts").then(
      (m) => (loaded = m.clientMetrics(meter, environment, fault)),
      (error: unknown) => {
        loading = undefined;
        unloadable(error);
        return undefined;
      },
    ));
  const policy =
    (pick: (m: ClientMetrics) => Policy): Policy =>
    (attempt, ctx, next) =>
      loaded
        ? pick(loaded)(attempt, ctx, next)
        : load().then((m) => (m ? pick(m)(attempt, ctx, next) : next(attempt, ctx)));
  return {
    attempt: policy((m) => m.attempt),
    call: policy((m) => m.call),
    // A sign-in happens inside a call, after the call policy has loaded the module.
    sessionEvent: (event) => {
      if (loaded) loaded.sessionEvent(event);
      else void load().then((m) => m?.sessionEvent(event));
    },
  };
}
