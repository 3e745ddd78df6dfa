/**
 * The debug switch: `AUDIENCE_LOG=debug` (or `info`, `warn`) in Node, Bun and Deno prints the
 * client's log lines to stderr, from that level up, when no `logger` option is given. The lines are
 * the `logger` option's: the client redacts them the same way (internal/observed-logger.ts).
 * Nothing is read in a browser, and `process` is reached through `globalThis` only, so a bundler
 * for browsers finds no Node global to polyfill.
 */
import { isBrowserLike } from "../internal/runtime.ts";
import type { Logger } from "../option-types.ts";

const LEVELS = ["debug", "info", "warn"] as const;
type Level = (typeof LEVELS)[number];

interface EnvGlobals {
  process?: { env?: Record<string, string | undefined> };
  Deno?: { env?: { get(name: string): string | undefined } };
}

/** The level AUDIENCE_LOG names, or undefined: unset, another value, a browser, no permission. */
function levelFromEnv(): Level | undefined {
  if (isBrowserLike()) return undefined;
  const g = globalThis as EnvGlobals;
  let value: string | undefined;
  try {
    value = g.Deno?.env ? g.Deno.env.get("AUDIENCE_LOG") : g.process?.env?.AUDIENCE_LOG;
  } catch {
    return undefined; // Deno without --allow-env
  }
  const level = value?.trim().toLowerCase();
  return LEVELS.find((l) => l === level);
}

/** One line per call: level, message and details as JSON; `console.error` is stderr in Node, Bun and Deno. */
const line =
  (level: Level) =>
  (message: string, details?: Record<string, unknown>): void =>
    console.error(
      `[audience-intelligence] ${level} ${message}${details === undefined ? "" : ` ${JSON.stringify(details)}`}`,
    );

/** The stderr logger AUDIENCE_LOG asks for; undefined when it asks for none. */
export function envLogger(): Logger | undefined {
  const level = levelFromEnv();
  if (level === undefined) return undefined;
  const logger: Logger = {};
  for (const l of LEVELS.slice(LEVELS.indexOf(level))) logger[l] = line(l);
  return logger;
}
