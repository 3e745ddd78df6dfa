/**
 * The caller's logger as the client calls it: every line redacted (message and details, by value,
 * in every encoding the redactor knows), then terminal-safe (control and bidi characters a server
 * sent, in a request id or a content type, arrive as `\uXXXX`), and a logger that throws never
 * changes a call's outcome, nor does one whose promise rejects.
 * Only the methods the caller gave exist, so a missing level costs nothing.
 */
import type { Logger } from "../options.ts";
import type { Redactor } from "./redact.ts";
import { terminalSafe } from "./terminal-text.ts";

/** The details with every key and string value through {@link terminalSafe} (they are flat). */
const safeDetails = <T>(details: T): T =>
  typeof details === "object" && details !== null
    ? (Object.fromEntries(
        Object.entries(details).map(([k, v]) => [terminalSafe(k), typeof v === "string" ? terminalSafe(v) : v]),
      ) as T)
    : details;

const ignore = (): void => {};

export function observedLogger(logger: Logger, redactor: Redactor): Logger {
  const out: Logger = {};
  for (const level of ["debug", "info", "warn"] as const) {
    const fn = logger[level];
    if (typeof fn !== "function") continue;
    out[level] = (message, details) => {
      try {
        // An async logger's rejection is handled too: unhandled, it would end a Node process.
        (
          fn.call(logger, terminalSafe(redactor.text(message)), safeDetails(redactor.value(details))) as
            | Promise<unknown>
            | undefined
        )?.then?.(undefined, ignore);
      } catch {
        // An observer never changes the outcome of the call it observes.
      }
    };
  }
  return out;
}

/**
 * `warn(message, error)` on `logger`: an error the client keeps to itself is named by its kind only
 * (its message may hold what a server, a store or a chunk loader said).
 */
export const warnOf =
  (logger: Logger) =>
  (message: string, error: unknown): void =>
    logger.warn?.(message, { error: error instanceof Error ? error.name : typeof error });

/**
 * `warn(message, error)` the first time only: a fault that comes back with every call (a chunk
 * that stays away, an observer that throws) is one line in the caller's log, not one per call.
 */
export function warnOnce(warn: (message: string, error: unknown) => void, message: string): (error: unknown) => void {
  let said = false;
  return (error) => {
    if (!said) warn(message, error);
    said = true;
  };
}
