/**
 * The scenario options, checked once before a scenario is built: an unknown name or option, or a
 * value outside its range, is refused with a TypeError or RangeError naming it, so a typo in a test
 * never plays a scenario other than the one the test meant.
 */
import type { ScenarioOptions } from "./scenario-types.ts";

/** Section 7's transient statuses: the default of server-errors, and its allowed range (5xx). */
export const SERVER_ERROR_STATUSES: readonly number[] = Object.freeze([500, 502, 503, 504]);

/** The longest an answer is held back (slow-upstream); longer delays are capped. */
export const MAX_DELAY_MS = 30_000;

type Check = (value: unknown) => string | undefined;

const whole =
  (least: number, most = Number.MAX_SAFE_INTEGER): Check =>
  (v) =>
    typeof v === "number" && Number.isInteger(v) && v >= least && v <= most
      ? undefined
      : `a whole number from ${least} to ${most}`;
const finite =
  (least = Number.NEGATIVE_INFINITY, most = Number.POSITIVE_INFINITY): Check =>
  (v) =>
    typeof v === "number" && Number.isFinite(v) && v >= least && v <= most
      ? undefined
      : `a finite number${least > Number.NEGATIVE_INFINITY ? ` from ${least}` : ""}${most < Number.POSITIVE_INFINITY ? ` to ${most}` : ""}`;
const statuses: Check = (v) =>
  Array.isArray(v) && v.length > 0 && v.every((s) => Number.isInteger(s) && s >= 500 && s <= 599)
    ? undefined
    : "a non-empty list of 5xx statuses";

const CHECKS: Readonly<Record<keyof ScenarioOptions, Check>> = {
  // mulberry32 keeps 32 bits of state: each seed of this range gives its own sequence.
  seed: whole(0, 2 ** 32 - 1),
  share: finite(0, 1),
  calls: whole(0),
  statuses,
  times: whole(0),
  lifetimeMs: finite(0),
  afterEdits: whole(0),
  skewMs: finite(),
  delayMs: finite(0),
};

const own = (table: object, key: string): boolean => Object.hasOwn(table, key);

/** Refuses an option no scenario knows, or a value outside its range. */
export function checkScenarioOptions(options: ScenarioOptions): void {
  if (typeof options !== "object" || options === null)
    throw new TypeError(`Scenario options must be an object (got ${String(options)})`);
  for (const [key, value] of Object.entries(options)) {
    if (!own(CHECKS, key))
      throw new TypeError(`Unknown scenario option "${key}": one of ${Object.keys(CHECKS).join(", ")}`);
    if (value === undefined) continue;
    const wanted = CHECKS[key as keyof ScenarioOptions](value);
    if (wanted) throw new RangeError(`Scenario option "${key}" must be ${wanted} (got ${show(value)})`);
  }
}

const show = (value: unknown): string => {
  if (typeof value === "number") return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
};

/** Whether `name` is one of the table's own keys (never an inherited one such as "constructor"). */
export function isOwnName<T extends object>(table: T, name: unknown): name is keyof T & string {
  return typeof name === "string" && own(table, name);
}
