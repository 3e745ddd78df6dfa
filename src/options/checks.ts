/**
 * The checks every option group uses: each returns the value (or its default) or throws a
 * TypeError that names the option ("createAudienceClient: option "<name>" <problem>").
 */

import { headerValueIssue } from "../guards/header-value.ts";
import { isLoopbackHost } from "../internal/runtime.ts";
import { MAX_TIMER_MS } from "../internal/timers.ts";

export const fail = (option: string, problem: string): never => {
  throw new TypeError(`createAudienceClient: option "${option}" ${problem}`);
};

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null;

/**
 * The caller's own properties of `value`, without a prototype: an option is never read through
 * the prototype chain, so a polluted `Object.prototype.mediaUrl` or `.partnerId` changes nothing.
 */
export const own = (value: object): Record<string, unknown> => Object.assign(Object.create(null), value);

/** `value`'s own properties if it is an object; otherwise refused as not being `shape`. */
export const object = (option: string, value: unknown, shape: string): Record<string, unknown> =>
  isObject(value) ? own(value) : fail(option, `must be ${shape}`);

/**
 * A method of a caller's object (a logger, a token store): its own, or its class's, never one
 * inherited from `Object.prototype` (where only pollution would put it).
 */
export function method(target: object, name: string): ((...args: never[]) => unknown) | undefined {
  const fn = (target as Record<string, unknown>)[name];
  if (typeof fn !== "function" || fn === (Object.prototype as Record<string, unknown>)[name]) return undefined;
  return fn as (...args: never[]) => unknown;
}

export function url(option: string, value: unknown): URL {
  if (typeof value !== "string" || !value.trim()) return fail(option, "must be a non-empty URL string");
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return fail(option, "is not a valid absolute URL");
  }
  if (parsed.protocol !== "https:" && !(parsed.protocol === "http:" && isLoopbackHost(parsed.hostname))) {
    fail(option, "must use https (plain http is accepted only for loopback addresses)");
  }
  if (parsed.search || parsed.hash || parsed.username || parsed.password)
    fail(option, "must not carry a query, fragment or user info");
  // A loop, not /\/+$/: that pattern retries from every slash of a long run (quadratic).
  let end = parsed.pathname.length;
  while (end > 0 && parsed.pathname[end - 1] === "/") end--;
  parsed.pathname = parsed.pathname.slice(0, end);
  return parsed;
}

export function positiveInt(option: string, value: unknown, fallback: number, max = MAX_TIMER_MS): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1)
    return fail(option, "must be a positive integer");
  if (value > max) fail(option, `must be at most ${max}`);
  return value;
}

/** A duration in ms: finite, ≥ 0, and a wait the runtime's timers can honour (below 2^31 ms). */
export function nonNegative(option: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
    return fail(option, "must be a finite number ≥ 0");
  if (value > MAX_TIMER_MS) fail(option, `must be at most ${MAX_TIMER_MS} ms (2^31 − 1: timers fire at once above it)`);
  return value;
}

/** A token becomes a header value (`Bearer <token>`): it must be header text without whitespace. */
export function token(option: string, value: unknown, required: boolean): string | undefined {
  if (value === undefined && !required) return undefined;
  if (typeof value !== "string" || !value.trim() || /[\s]/.test(value) || headerValueIssue(value))
    return fail(option, "must be a non-empty string of header text (Latin-1, no whitespace or control characters)");
  return value;
}
