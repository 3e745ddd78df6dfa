/**
 * The caller's logger as the client calls it: every line redacted (message and details, by value,
 * in every encoding the redactor knows), and a logger that throws never changes a call's outcome.
 * Only the methods the caller gave exist, so a missing level costs nothing.
 */
import type { Logger } from "../options.ts";
import type { Redactor } from "./redact.ts";

export function observedLogger(logger: Logger, redactor: Redactor): Logger {
  const out: Logger = {};
  for (const level of ["debug", "info", "warn"] as const) {
    const fn = logger[level];
    if (typeof fn !== "function") continue;
    out[level] = (message, details) => {
      try {
        fn.call(logger, redactor.text(message), details === undefined ? undefined : redactor.value(details));
      } catch {
        // An observer never changes the outcome of the call it observes.
      }
    };
  }
  return out;
}
