/**
 * The options every shared-store coordinator takes (`redisCoordinator`, `durableObjectCoordinator`),
 * checked once when the coordinator is made, each refused by name with a TypeError: a `failClosed`
 * of "yes" would otherwise be a fail-open, a timing of "5000" a wait of NaN. The observers are the
 * application's code, run while the store is away: each is wrapped (internal/observe.ts) so that one
 * that throws or rejects changes nothing of a call, of failClosed's error or of the store's recovery.
 */
import { observe } from "../internal/observe.ts";

/** The longest timing a coordinator takes, in ms (an hour): a lease or wait past it is a mistake. */
const MAX_TIMING_MS = 3_600_000;

export type OptionFailure = (option: string, problem: string) => never;

/** Failures named `<factory>: option "<name>" <problem>`, as `createAudienceClient`'s are. */
export const optionFailure =
  (factory: string): OptionFailure =>
  (option, problem) => {
    throw new TypeError(`${factory}: option "${option}" ${problem}`);
  };

/** The options object: none for undefined and null (as every helper takes them), else an object. */
export function optionsObject(factory: string, value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) throw new TypeError(`${factory}: options must be an object`);
  return value as Record<string, unknown>;
}

/** An observer option: undefined, or a function wrapped so that it never fails the client. */
export function observerOption<A extends unknown[]>(
  value: unknown,
  option: string,
  fail: OptionFailure,
): ((...args: A) => void) | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "function") return fail(option, "must be a function");
  return (...args) => observe(() => value(...args));
}

/** A yes-or-no option: undefined is `false`; anything but a boolean is refused. */
export function flagOption(value: unknown, option: string, fail: OptionFailure): boolean {
  if (value === undefined) return false;
  return typeof value === "boolean" ? value : fail(option, "must be true or false");
}

/** `defaults` with the caller's `timing` over them: only names of `defaults`, whole ms from 1 to an hour. */
export function timingOption<T extends Record<string, number>>(value: unknown, defaults: T, fail: OptionFailure): T {
  if (value === undefined) return { ...defaults };
  if (typeof value !== "object" || value === null || Array.isArray(value)) return fail("timing", "must be an object");
  const timing: Record<string, number> = { ...defaults };
  for (const [name, ms] of Object.entries(value)) {
    if (!Object.hasOwn(defaults, name)) fail(`timing.${name}`, "is not a timing of this coordinator");
    if (!(typeof ms === "number" && Number.isInteger(ms) && ms >= 1 && ms <= MAX_TIMING_MS))
      fail(`timing.${name}`, `must be a whole number of ms from 1 to ${MAX_TIMING_MS}`);
    timing[name] = ms;
  }
  return timing as T;
}
