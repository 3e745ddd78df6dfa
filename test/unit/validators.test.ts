/**
 * The generated request schemas as the client reports them: `format: date` and `integer` are
 * refinements rather than z.iso.date() / z.int() (bundle size), and a map a plain-object check
 * piped into an object with a catchall rather than z.record: each must accept and refuse what the
 * zod built-in did. The messages say the same, except where the built-in's was vaguer (an unsafe
 * integer was "is invalid", a map that is not a plain object "must be a record").
 */
import { beforeAll, describe, expect, it } from "vitest";
import { isCalendarDate } from "../../generated/formats.ts";
import { operations } from "../../generated/operations.ts";
import { ValidationError } from "../../src/errors/validation-error.ts";
import { loadRequestValidators, validateRequest } from "../../src/guards/validate-request.ts";

// Loaded once, validation is synchronous (the first call of a client waits for the load).
beforeAll(() => loadRequestValidators());

const op = (key: string) => {
  const found = operations.find((o) => `${o.method} ${o.path}` === key);
  if (!found) throw new Error(key);
  return found;
};

/** The issues validateRequest reports, as `field: message` lines. */
function issues(key: string, params: { path?: Record<string, unknown>; query?: unknown }, body?: unknown): string[] {
  try {
    validateRequest({ op: op(key), params, body }, 100);
    return [];
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return error.issues.map((i) => `${i.field}: ${i.message}`);
  }
}

const setup = (body: Record<string, unknown>) => issues("POST /setup_processes/{eid}", { path: { eid: "e1" } }, body);

describe("generated validators", () => {
  it("dates: real calendar dates only", () => {
    for (const good of ["2027-05-01", "2028-02-29", "2000-02-29", "0001-01-01"])
      expect(isCalendarDate(good), good).toBe(true);
    for (const bad of [
      "2027-02-29",
      "1900-02-29",
      "2027-13-01",
      "2027-04-31",
      "2027-5-1",
      "2027-05-01T00:00:00Z",
      " 2027-05-01",
      "",
      20270501,
    ]) {
      expect(isCalendarDate(bad), String(bad)).toBe(false);
    }
    expect(setup({ start_date: "2027-02-30" })).toEqual(["body.start_date: must be a real calendar date YYYY-MM-DD"]);
    expect(setup({ start_date: 20270201 })).toEqual(["body.start_date: must be a string"]);
    expect(setup({ start_date: "2027-05-01", end_date: "2027-05-31" })).toEqual([]);
  });

  it("integers: safe integers only, and a non-number is reported as such", () => {
    expect(setup({ tc_run_id: 7 })).toEqual([]);
    expect(setup({ tc_run_id: 1.5 })).toEqual(["body.tc_run_id: must be an integer"]);
    expect(setup({ tc_run_id: 2 ** 53 })).toEqual(["body.tc_run_id: must be an integer"]);
    expect(setup({ tc_run_id: "7" })).toEqual(["body.tc_run_id: must be a finite number"]);
    expect(issues("GET /events/", { query: { page: 0.5 } })).toEqual([
      "query.page: must be an integer",
      "query.page: must be ≥ 1",
    ]);
  });

  it("query-string parameter maps: scalars or arrays of scalars under any key", () => {
    const write = (params: unknown) => issues("POST /campaigns/", { query: { params } });
    expect(write({ name: "x", budget: 5, on: true, city: ["a", "b", 3] })).toEqual([]);
    expect(write("name=x")).toEqual(["query.params: must be a plain object"]);
    expect(write(["x"])).toEqual(["query.params: must be a plain object"]);
    expect(write(new Map([["status", "PAUSED"]]))).toEqual(["query.params: must be a plain object"]); // would send nothing
    expect(write(Object.assign(Object.create(null), { status: "PAUSED" }))).toEqual([]);
    expect(write({ audience: { age: 30 } })).toEqual(["query.params.audience: has an unsupported type"]);
    expect(write({ city: [["a"]] })).toEqual(["query.params.city: has an unsupported type"]);
  });
});
