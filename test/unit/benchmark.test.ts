import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ValidationError } from "../../src/errors/validation-error.ts";
import { type BenchmarkUnit, benchmarkValuesOf, normalizeBenchmark } from "../../src/workflows/benchmark.ts";

describe("normalizeBenchmark", () => {
  const cases: Array<[values: Array<number | string>, unit: BenchmarkUnit, fractions: number[], ambiguous: boolean]> = [
    [[], "fraction", [], false],
    [[0], "fraction", [0], false],
    [[1], "fraction", [1], false],
    [[1.5], "fraction", [1.5], false], // the boundary is still a fraction
    [[1.6], "fraction", [1.6], true],
    [[3], "fraction", [3], true], // the upper boundary is still ambiguous
    [[3.1], "percent", [0.031], false],
    [[85], "percent", [0.85], false],
    [[0.2, 85], "percent", [0.002, 0.85], false], // one unit for the whole response
    [["85%"], "percent", [0.85], false],
    [[" 85 % ", 0.5], "percent", [0.85, 0.005], false], // a % sign anywhere makes the response percent
    [["0.5", "0.75"], "fraction", [0.5, 0.75], false],
    [[" 0.85 ", 1], "fraction", [0.85, 1], false],
    [["1e1"], "percent", [0.1], false],
    [[-2], "fraction", [-2], true], // magnitude counts
    [[-90, 10], "percent", [-0.9, 0.1], false],
    [[-1.2, 0.4], "fraction", [-1.2, 0.4], false],
  ];

  it.each(cases)("reads %j as %s", (values, unit, fractions, ambiguous) => {
    const result = normalizeBenchmark(values);
    expect(result.unit).toBe(unit);
    expect(result.ambiguous).toBe(ambiguous);
    expect(result.fractions).toHaveLength(fractions.length);
    result.fractions.forEach((f, i) => {
      expect(f).toBeCloseTo(fractions[i] ?? Number.NaN, 12);
    });
  });

  it("takes an explicit unit without detection", () => {
    expect(normalizeBenchmark([0.5, 2], { unit: "percent" })).toEqual({
      unit: "percent",
      fractions: [0.005, 0.02],
      ambiguous: false,
    });
    expect(normalizeBenchmark([85, "90"], { unit: "fraction" })).toEqual({
      unit: "fraction",
      fractions: [85, 90],
      ambiguous: false,
    });
    expect(normalizeBenchmark(["85%"], { unit: "percent" })).toEqual({
      unit: "percent",
      fractions: [0.85],
      ambiguous: false,
    });
  });

  const refused: Array<[what: string, values: unknown[], field: string]> = [
    ["NaN", [0.5, Number.NaN], "values.1"],
    ['"abc"', ["abc"], "values.0"],
    ["an empty string", [1, 2, ""], "values.2"],
    ["a blank string", ["  "], "values.0"],
    ["a lone %", ["%"], "values.0"],
    ["Infinity", [Number.POSITIVE_INFINITY], "values.0"],
    ["-Infinity", [3, Number.NEGATIVE_INFINITY], "values.1"],
    ['"Infinity"', ["Infinity"], "values.0"],
    ["an overflowing string", ["1e999"], "values.0"],
    ["a hex string", ["0x10"], "values.0"],
    ["null", [null], "values.0"],
    ["a boolean", [true], "values.0"],
    ["an object", [{ value: 1 }], "values.0"],
    // biome-ignore lint/suspicious/noSparseArray: the hole is the case under test
    ["a hole", [1, , 2], "values.1"],
  ];

  it.each(refused)("refuses %s, naming the field but not the value", (_what, values, field) => {
    const error = catchError(() => normalizeBenchmark(values as Array<number | string>));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.issues.map((i) => i.field)).toEqual([field]);
    expect(error.message).not.toMatch(/abc|NaN|Infinity|null|true|0x10|1e999/);
  });

  it("reports every bad value at once", () => {
    const error = catchError(() => normalizeBenchmark(["x", 1, "y"]));
    expect(error.issues.map((i) => i.field)).toEqual(["values.0", "values.2"]);
  });

  it('refuses a % value when unit "fraction" was given (the data contradicts the caller)', () => {
    expect(catchError(() => normalizeBenchmark([0.5, "85%"], { unit: "fraction" })).issues.map((i) => i.field)).toEqual(
      ["values.1"],
    );
  });

  it("refuses a non-array", () => {
    expect(catchError(() => normalizeBenchmark("0.5" as unknown as number[])).issues.map((i) => i.field)).toEqual([
      "values",
    ]);
  });

  const value = fc.oneof(fc.double({ min: -1000, max: 1000, noNaN: true }), fc.integer({ min: -200, max: 200 }));

  it("property: percent fractions are the values divided by 100", () => {
    fc.assert(
      fc.property(fc.array(value), (values) => {
        const result = normalizeBenchmark(values);
        if (result.unit === "percent") expect(result.fractions).toEqual(values.map((v) => v / 100));
        else expect(result.fractions).toEqual(values);
      }),
    );
  });

  it("property: an explicit unit is respected", () => {
    fc.assert(
      fc.property(fc.array(value), fc.constantFrom<BenchmarkUnit>("fraction", "percent"), (values, unit) => {
        const result = normalizeBenchmark(values, { unit });
        expect(result).toEqual({
          unit,
          fractions: values.map((v) => (unit === "percent" ? v / 100 : v)),
          ambiguous: false,
        });
      }),
    );
  });

  it("property: detection does not depend on the order of the values", () => {
    const mixed = fc.oneof(
      value,
      value.map(String),
      value.map((v) => `${v}%`),
    );
    fc.assert(
      fc.property(
        fc
          .array(mixed)
          .chain((values) =>
            fc.tuple(
              fc.constant(values),
              fc.shuffledSubarray(values, { minLength: values.length, maxLength: values.length }),
            ),
          ),
        ([values, shuffled]) => {
          const a = normalizeBenchmark(values);
          const b = normalizeBenchmark(shuffled);
          expect([b.unit, b.ambiguous]).toEqual([a.unit, a.ambiguous]);
        },
      ),
    );
  });

  it("property: one fraction per value", () => {
    fc.assert(
      fc.property(fc.array(value), (values) => {
        expect(normalizeBenchmark(values).fractions).toHaveLength(values.length);
      }),
    );
  });
});

describe("benchmarkValuesOf", () => {
  it("takes a bare array of numbers and strings", () => {
    expect(benchmarkValuesOf([0.5, "0.7", "80%"])).toEqual([0.5, "0.7", "80%"]);
    expect(benchmarkValuesOf([])).toEqual([]);
  });

  it("collects values under the default keys, at any depth, in document order", () => {
    const body = {
      event: { id: "evt-1", benchmark: 0.9 },
      series: [
        { day: 1, values: [85, "90%"] },
        { day: 2, values: [] },
      ],
      benchmarks: [{ values: [1, 2] }, 3],
      capacity: 5000,
    };
    expect(benchmarkValuesOf(body)).toEqual([0.9, 85, "90%", 1, 2, 3]);
  });

  it("ignores values that are neither numbers nor strings, and bodies without the keys", () => {
    expect(benchmarkValuesOf({ benchmark: null, values: [true, { other: 1 }] })).toEqual([]);
    expect(benchmarkValuesOf({ items: [1, 2] })).toEqual([]);
    expect(benchmarkValuesOf("85")).toEqual([]);
    expect(benchmarkValuesOf(null)).toEqual([]);
  });

  it("uses the keys it is given", () => {
    expect(benchmarkValuesOf({ ratio: [0.5], benchmark: 9 }, ["ratio"])).toEqual([0.5]);
  });

  it("does not loop on a cyclic object", () => {
    const body: Record<string, unknown> = { benchmark: 1 };
    body.self = body;
    expect(benchmarkValuesOf(body)).toEqual([1]);
  });

  it("feeds normalizeBenchmark", () => {
    expect(normalizeBenchmark(benchmarkValuesOf({ data: { benchmark: [85, 120] } })).fractions).toEqual([0.85, 1.2]);
  });
});

function catchError(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error("expected a ValidationError");
}
