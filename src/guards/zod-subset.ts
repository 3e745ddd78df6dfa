/**
 * The part of zod/mini's API that the request schemas use, for the browser build.
 *
 * scripts/lib/emit-validators.ts emits the description's request schemas twice, as the same code:
 * generated/validators.ts over zod/mini (the server build) and generated/validators.browser.ts over
 * this module (the browser build, scripts/browser-build.mjs), where zod's core was ~6 KB min+gzip of
 * what a page loads for its first calls. It keeps zod 4's readings exactly, since a page must refuse
 * what a server refuses, with the same fields named: the issues (code, path and the fields
 * guards/zod-issues.ts reads), their order, which issue stops the later checks (a type's issue does,
 * a check's does not; a length check still runs on a value that has a length), a union that reports
 * the one branch that got past its type, an object's reading of inherited and absent keys and of
 * extra keys (`for...in`). Followed from node_modules/zod/v4/core/schemas.js and checks.js;
 * test/unit/validators-browser.test.ts compares both on every schema and a corpus of hostile values.
 */

/** An issue as zod reports it (the fields guards/zod-issues.ts reads). */
export interface Issue {
  code: string;
  path: PropertyKey[];
  expected?: string;
  origin?: string;
  minimum?: number;
  inclusive?: boolean;
  values?: readonly unknown[];
  format?: string;
  keys?: string[];
  message?: string;
  /** zod's flag: later checks still run. A type's issue has none, so it stops them. */
  continue?: boolean;
}

interface Payload {
  value: unknown;
  issues: Issue[];
  aborted?: boolean;
}

/** A check; `when` makes it run after a type's issue too, while it holds (zod's `when`). */
type Check = ((payload: Payload) => void) & { when?: (payload: Payload) => boolean };

type Parse = (payload: Payload) => Payload;

const aborted = (p: Payload, from = 0): boolean =>
  p.aborted === true || p.issues.slice(from).some((i) => i.continue !== true);
const explicitlyAborted = (p: Payload): boolean => p.aborted === true || p.issues.some((i) => i.continue === false);

function runChecks(p: Payload, checks: readonly Check[]): Payload {
  let isAborted = aborted(p);
  for (const check of checks) {
    if (check.when) {
      if (explicitlyAborted(p) || !check.when(p)) continue;
    } else if (isAborted) continue;
    const before = p.issues.length;
    check(p);
    if (!isAborted && p.issues.length !== before) isAborted = aborted(p, before);
  }
  return p;
}

/** A schema: how a value is read, then its checks (the mini API's `.check()`). */
export class ZodMiniType {
  constructor(
    readonly parse: Parse,
    readonly checks: readonly Check[] = [],
    /** zod's `optin` / `optout` "optional": an absent key is fine. */
    readonly optIn = false,
    readonly optOut = false,
  ) {}

  check(...more: Check[]): ZodMiniType {
    return new ZodMiniType(this.parse, [...this.checks, ...more], this.optIn, this.optOut);
  }

  run(payload: Payload): Payload {
    const read = this.parse(payload);
    return this.checks.length ? runChecks(read, this.checks) : read;
  }

  safeParse(value: unknown): { success: boolean; error: { issues: Issue[] } } {
    const { issues } = this.run({ value, issues: [] });
    return { success: issues.length === 0, error: { issues } };
  }
}

const typeIssue = (p: Payload, expected: string): Payload => {
  p.issues.push({ code: "invalid_type", expected, path: [] });
  return p;
};

/** One type by `typeof` (and a finite number: zod refuses NaN and ±Infinity). */
const primitive = (expected: string, ok: (value: unknown) => boolean) => (): ZodMiniType =>
  new ZodMiniType((p) => (ok(p.value) ? p : typeIssue(p, expected)));

export const string = primitive("string", (v) => typeof v === "string");
export const number = primitive("number", (v) => typeof v === "number" && Number.isFinite(v));
export const boolean = primitive("boolean", (v) => typeof v === "boolean");
export const unknown = (): ZodMiniType => new ZodMiniType((p) => p);

function enumOf(values: readonly unknown[]): ZodMiniType {
  const set = new Set(values);
  return new ZodMiniType((p) => {
    if (!set.has(p.value)) p.issues.push({ code: "invalid_value", values, path: [] });
    return p;
  });
}

export { enumOf as enum };

export function optional(inner: ZodMiniType): ZodMiniType {
  return new ZodMiniType((p) => (p.value === undefined ? p : inner.run(p)), [], true, true);
}

const prefixed = (key: PropertyKey, issues: Issue[]): Issue[] => {
  for (const issue of issues) issue.path.unshift(key);
  return issues;
};

export function array(element: ZodMiniType): ZodMiniType {
  return new ZodMiniType((p) => {
    const input = p.value;
    if (!Array.isArray(input)) return typeIssue(p, "array");
    for (let i = 0; i < input.length; i++) {
      const r = element.run({ value: input[i], issues: [] });
      // Spread as zod does: 200 000 bad rows overflow both alike (guards/validate-request.ts).
      if (r.issues.length) p.issues.push(...prefixed(i, r.issues));
    }
    return p;
  });
}

export function union(options: readonly ZodMiniType[]): ZodMiniType {
  const [only] = options;
  if (options.length === 1 && only) return only;
  return new ZodMiniType(
    (p) => {
      const results: Payload[] = [];
      for (const option of options) {
        const r = option.run({ value: p.value, issues: [] });
        if (r.issues.length === 0) return r;
        results.push(r);
      }
      // The one branch that got past its type (its issue lets checks go on) is the answer.
      const going = results.filter((r) => !aborted(r));
      if (going.length === 1 && going[0]) return going[0];
      p.issues.push({ code: "invalid_union", path: [] });
      return p;
    },
    [],
    options.some((o) => o.optIn),
    options.some((o) => o.optOut),
  );
}

/** An object schema: its declared keys, and what extra keys may hold (none: strict; unknown: loose). */
class ObjectType extends ZodMiniType {
  constructor(
    readonly shape: Readonly<Record<string, ZodMiniType>>,
    readonly rest: ZodMiniType | "never" | undefined,
  ) {
    super((p) => readObject(p, shape, rest));
  }
}

function readObject(p: Payload, shape: Readonly<Record<string, ZodMiniType>>, rest: ObjectType["rest"]): Payload {
  const input = p.value;
  if (typeof input !== "object" || input === null || Array.isArray(input)) return typeIssue(p, "object");
  const record = input as Record<string, unknown>;
  const keys = Object.keys(shape);
  for (const key of keys) {
    const schema = shape[key];
    if (!schema) continue;
    readProperty(schema.run({ value: record[key], issues: [] }), p, key, record, schema);
  }
  if (rest === undefined) return p;
  const declared = new Set(keys);
  const unrecognized: string[] = [];
  for (const key in record) {
    if (declared.has(key)) continue;
    if (rest === "never") unrecognized.push(key);
    else if (key !== "__proto__") readProperty(rest.run({ value: record[key], issues: [] }), p, key, record, rest);
  }
  if (unrecognized.length) p.issues.push({ code: "unrecognized_keys", keys: unrecognized, path: [], continue: true });
  return p;
}

/** zod's handlePropertyResult: an absent optional key adds nothing (optional passes undefined); an absent required one is named. */
function readProperty(r: Payload, into: Payload, key: string, input: object, schema: ZodMiniType): void {
  const present = key in input;
  if (r.issues.length) into.issues.push(...prefixed(key, r.issues));
  if (!present && !schema.optIn && !r.issues.length)
    into.issues.push({ code: "invalid_type", expected: "nonoptional", path: [key] });
}

export const object = (shape: Readonly<Record<string, ZodMiniType>>): ObjectType => new ObjectType(shape, undefined);
export const looseObject = (shape: Readonly<Record<string, ZodMiniType>>): ObjectType =>
  new ObjectType(shape, unknown());
export const strictObject = (shape: Readonly<Record<string, ZodMiniType>>): ObjectType =>
  new ObjectType(shape, "never");
export const catchall = (schema: ObjectType, rest: ZodMiniType): ObjectType => new ObjectType(schema.shape, rest);

/** The first schema, then (if it found nothing wrong) the second on the same value. */
export function pipe(first: ZodMiniType, second: ZodMiniType): ZodMiniType {
  return new ZodMiniType(
    (p) => {
      const left = first.run(p);
      if (left.issues.some((i) => i.code !== "unrecognized_keys")) {
        left.aborted = true;
        return left;
      }
      return second.run({ value: left.value, issues: left.issues });
    },
    [],
    first.optIn,
    second.optOut,
  );
}

export function refine(ok: (value: unknown) => boolean, message: string): Check {
  return (p) => {
    if (!ok(p.value)) p.issues.push({ code: "custom", message, path: [], continue: true });
  };
}

/** Any value `ok` accepts (its type parameter is the mini API's, for the emitted code). */
export const custom = <_T = unknown>(ok: (value: unknown) => boolean, message: string): ZodMiniType =>
  new ZodMiniType((p) => p, [refine(ok, message)]);

const origin = (value: unknown): string =>
  Array.isArray(value) ? "array" : typeof value === "string" ? "string" : "unknown";

/** A string's code points (a surrogate pair is one), as zod counts them. */
function codePoints(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    if ((text.charCodeAt(i) & 0xfc00) === 0xd800 && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      count--;
      i++;
    }
  }
  return count;
}

export function minLength(minimum: number): Check {
  const check: Check = (p) => {
    const input = p.value as { length: number };
    const units = input.length;
    const length = typeof input === "string" && units >= minimum && units < minimum * 2 ? codePoints(input) : units;
    if (length >= minimum) return;
    p.issues.push({ code: "too_small", origin: origin(input), minimum, inclusive: true, path: [], continue: true });
  };
  check.when = (p) =>
    p.value !== undefined && p.value !== null && (p.value as { length?: unknown }).length !== undefined;
  return check;
}

const bound =
  (inclusive: boolean) =>
  (minimum: number): Check =>
  (p) => {
    const value = p.value as number;
    if (inclusive ? value >= minimum : value > minimum) return;
    p.issues.push({ code: "too_small", origin: "number", minimum, inclusive, path: [], continue: true });
  };

export const gte = bound(true);
export const gt = bound(false);

export function regex(pattern: RegExp): Check {
  return (p) => {
    pattern.lastIndex = 0;
    if (pattern.test(p.value as string)) return;
    p.issues.push({ code: "invalid_format", origin: "string", format: "regex", path: [], continue: true });
  };
}
