import { DEFAULT_BENCHMARK_FIELDS } from "../assumptions.ts";
import { ValidationError, type ValidationIssue } from "../errors/validation-error.ts";

/** How a benchmark response expresses its values: `0.85` (fraction) or `85` (percent). */
export type BenchmarkUnit = "fraction" | "percent";

/** Options of {@link normalizeBenchmark}. */
export interface NormalizeBenchmarkOptions {
  /**
   * The unit, when the caller knows it. Skips detection entirely.
   * @default detected from the values
   */
  readonly unit?: BenchmarkUnit;
}

/** The values of one benchmark response, as fractions (1 = 100 %). */
export interface NormalizedBenchmark {
  /** The unit the response was read in. */
  readonly unit: BenchmarkUnit;
  /** One fraction per input value, same order. */
  readonly fractions: number[];
  /**
   * True when the unit was guessed from values between 1.5 and 3 (150–300 % or 1.5–3 %): read as
   * fractions, but worth a look. Always false when `unit` was given.
   */
  readonly ambiguous: boolean;
}

// Section 2: benchmarks come "as a fraction or a percent; the client must auto-detect which".
// Demand versus expected rarely exceeds 150 % (1.5) and a percent response rarely stays under 3 %,
// so magnitudes up to 1.5 read as fractions, above 3 as percents, and in between as fractions
// flagged ambiguous.
const FRACTION_MAX = 1.5;
const PERCENT_MIN = 3;

// A plain decimal number; `Number()` alone would also accept "", "0x1F" and "Infinity". Each run
// of digits can be matched one way only, so a long non-number fails in linear time (the former
// `\d+\.?\d*` split a run of digits every possible way: 60 KB of digits blocked for ~2 s).
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

/**
 * Reads the values of one benchmark response as fractions, detecting whether the response uses
 * fractions or percents. The unit is decided once for the whole response, never per value, and
 * does not depend on the order of the values.
 *
 * - A string with a `%` sign (`"85%"`) makes the whole response percent.
 * - Otherwise the largest magnitude decides: ≤ 1.5 fraction, > 3 percent, in between fraction
 *   with `ambiguous: true`. An empty list is a fraction.
 * - Numeric strings (`" 0.85 "`) are accepted; anything else that is not a finite number
 *   (NaN, `Infinity`, `"abc"`, `""`, `null`, a boolean, an object) is refused with a
 *   {@link ValidationError} on `values.<index>`. So is a `%` value when `unit: "fraction"` was given.
 *
 * @example
 * normalizeBenchmark([0.85, 1.2]); // { unit: "fraction", fractions: [0.85, 1.2], ambiguous: false }
 * normalizeBenchmark([85, 120]); // { unit: "percent", fractions: [0.85, 1.2], ambiguous: false }
 * normalizeBenchmark(["85%", "0.5"]); // { unit: "percent", fractions: [0.85, 0.005], ambiguous: false }
 * normalizeBenchmark([2], { unit: "percent" }); // { unit: "percent", fractions: [0.02], ambiguous: false }
 */
export function normalizeBenchmark(
  values: ReadonlyArray<number | string>,
  options: NormalizeBenchmarkOptions = {},
): NormalizedBenchmark {
  if (!Array.isArray(values))
    throw new ValidationError([{ field: "values", message: "must be an array of numbers or numeric strings" }]);
  // An unknown unit (from JavaScript) would be returned as is and its values read as fractions.
  if (options.unit !== undefined && options.unit !== "fraction" && options.unit !== "percent")
    throw new ValidationError([{ field: "unit", message: 'must be "fraction" or "percent"' }]);
  const parsed = Array.from(values, parseValue); // visits holes too, so they are refused
  const issues: ValidationIssue[] = [];
  parsed.forEach((p, i) => {
    if (p === undefined)
      issues.push({
        field: `values.${i}`,
        message: 'must be a finite number or a numeric string such as "0.85" or "85%"',
      });
    else if (p.percentSign && options.unit === "fraction")
      issues.push({ field: `values.${i}`, message: 'has a % sign, but unit "fraction" was given' });
  });
  if (issues.length > 0) throw new ValidationError(issues);
  const numbers = parsed as ParsedValue[];

  const { unit, ambiguous } =
    options.unit !== undefined ? { unit: options.unit, ambiguous: false } : detectUnit(numbers);
  const fractions = numbers.map(({ value }) => (unit === "percent" ? value / 100 : value));
  return { unit, fractions, ambiguous };
}

interface ParsedValue {
  readonly value: number;
  readonly percentSign: boolean;
}

function parseValue(raw: unknown): ParsedValue | undefined {
  if (typeof raw === "number") return Number.isFinite(raw) ? { value: raw, percentSign: false } : undefined;
  if (typeof raw !== "string") return undefined;
  const text = raw.trim();
  const percentSign = text.endsWith("%");
  const digits = percentSign ? text.slice(0, -1).trimEnd() : text;
  if (!DECIMAL.test(digits)) return undefined;
  const value = Number(digits);
  return Number.isFinite(value) ? { value, percentSign } : undefined; // "1e999" overflows
}

function detectUnit(values: readonly ParsedValue[]): { unit: BenchmarkUnit; ambiguous: boolean } {
  if (values.some((v) => v.percentSign)) return { unit: "percent", ambiguous: false };
  const max = values.reduce((m, { value }) => Math.max(m, Math.abs(value)), 0);
  if (max <= FRACTION_MAX) return { unit: "fraction", ambiguous: false };
  if (max > PERCENT_MIN) return { unit: "percent", ambiguous: false };
  return { unit: "fraction", ambiguous: true };
}

/**
 * Collects the benchmark values of a response body whose field names are not documented
 * (Section 2 gap): every number or string found under one of `fields`, searching nested objects
 * and arrays, in document order. A value under such a key may be a single number or string, or an
 * array of them (objects inside that array are searched too). A body that is itself an array of
 * numbers or strings is taken whole. Pass the result to {@link normalizeBenchmark}.
 *
 * @param fields - The keys to look for; `DEFAULT_BENCHMARK_FIELDS` (`benchmark`, `benchmarks`, `values`) when omitted.
 * @example
 * benchmarkValuesOf({ data: { benchmark: 0.9 }, series: [{ values: [85, "90%"] }] }); // [0.9, 85, "90%"]
 * benchmarkValuesOf([0.5, "0.7"]); // [0.5, "0.7"]
 */
export function benchmarkValuesOf(
  body: unknown,
  fields: readonly string[] = DEFAULT_BENCHMARK_FIELDS,
): Array<number | string> {
  const keys = new Set(fields);
  const out: Array<number | string> = [];
  const seen = new WeakSet<object>(); // a parsed JSON body has no cycles, but a caller's object may

  // Depth first in document order, with an explicit stack: a server's body may nest without limit
  // (a recursive walk threw a RangeError at a few thousand levels). Each entry is [node, take]:
  // `take` marks a value found under one of `fields` (kept if a number or string, else searched).
  if (Array.isArray(body) && body.every(isValue)) return [...body];
  const stack: Array<[unknown, boolean]> = [[body, false]];
  for (let step = stack.pop(); step; step = stack.pop()) {
    const [node, take] = step;
    if (take && isValue(node)) out.push(node);
    else if (typeof node === "object" && node !== null && !seen.has(node)) {
      seen.add(node);
      const next: Array<[unknown, boolean]> = Array.isArray(node)
        ? node.map((item) => [item, false])
        : Object.entries(node).flatMap(
            ([key, value]): Array<[unknown, boolean]> =>
              !keys.has(key) ? [[value, false]] : Array.isArray(value) ? value.map((v) => [v, true]) : [[value, true]],
          );
      for (let i = next.length - 1; i >= 0; i--) stack.push(next[i] as [unknown, boolean]);
    }
  }
  return out;
}

const isValue = (v: unknown): v is number | string => typeof v === "number" || typeof v === "string";
