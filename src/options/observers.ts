/**
 * What watches the client without changing a call: the logger, the tracer and meter
 * (OpenTelemetry), the drift reports and the rate-state callback.
 */

import { CLIENT_DEFAULTS } from "../limits.ts";
import type { AudienceClientOptions, ClientConfig, Logger } from "../option-types.ts";
import { fail, isObject, method } from "./checks.ts";
import { envLogger } from "./log-env.ts";

/**
 * The caller's logger methods, bound to it; a level it lacks stays silent. Without the option, the
 * stderr logger `AUDIENCE_LOG` asks for (log-env.ts), if any: an explicit `logger` always wins.
 */
export function loggerOption(value: unknown): Logger {
  const input = value ?? envLogger() ?? {};
  if (!isObject(input)) fail("logger", "must be an object with debug/info/warn functions");
  const logger: Logger = {};
  for (const level of ["debug", "info", "warn"] as const) {
    const fn = method(input as object, level);
    if (fn) logger[level] = fn.bind(input) as Logger[typeof level];
  }
  return logger;
}

export function observerOptions(
  options: AudienceClientOptions,
): Pick<ClientConfig, "tracer" | "onRateStateChange" | "meter" | "onDrift" | "driftSampleRate"> {
  const { tracer, meter, onDrift, onRateStateChange } = options;
  if (tracer !== undefined && typeof tracer?.startSpan !== "function")
    fail("tracer", "must be an OpenTelemetry Tracer");
  if (
    meter !== undefined &&
    (typeof meter?.createHistogram !== "function" || typeof meter?.createCounter !== "function")
  )
    fail("meter", "must be an OpenTelemetry Meter");
  if (onDrift !== undefined && typeof onDrift !== "function") fail("onDrift", "must be a function");
  const driftSampleRate = options.driftSampleRate ?? CLIENT_DEFAULTS.driftSampleRate;
  if (!(typeof driftSampleRate === "number" && driftSampleRate >= 0 && driftSampleRate <= 1))
    fail("driftSampleRate", "must be a number from 0 to 1");
  if (onRateStateChange !== undefined && typeof onRateStateChange !== "function")
    fail("onRateStateChange", "must be a function");
  return { tracer, onRateStateChange, meter, onDrift, driftSampleRate };
}
