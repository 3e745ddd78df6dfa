/**
 * The browser build validates requests with generated/validators.browser.ts: the same emitted
 * schemas over src/guards/zod-subset.ts instead of zod/mini. A page must refuse what a server
 * refuses, naming the same fields in the same order, so every schema of the description (and every
 * keyword the emitter supports) is run through both on a corpus: the description's sample calls,
 * each of their fields replaced by hostile values or removed, extra and inherited keys, a polluted
 * Object.prototype, and seeded random values. What is compared is what a caller sees: pass or the
 * ValidationIssues (guards/zod-issues.ts), or the error thrown.
 */
import { describe, expect, it } from "vitest";
import * as zod from "zod/mini";
import * as browser from "../../generated/validators.browser.ts";
import * as server from "../../generated/validators.ts";
import { sampleCalls } from "../../scripts/lib/sample-calls.ts";
import { toValidationIssues } from "../../src/guards/zod-issues.ts";
import * as subset from "../../src/guards/zod-subset.ts";

interface Parser {
  safeParse(value: unknown): { success: boolean; error?: { issues: readonly unknown[] } };
}

/** What a caller sees of one validation. */
function outcome(schema: Parser, value: unknown): unknown {
  try {
    const result = schema.safeParse(value);
    if (result.success) return "passes";
    return toValidationIssues(result.error?.issues as Parameters<typeof toValidationIssues>[0], "body");
  } catch (error) {
    return `throws ${(error as Error).name}: ${(error as Error).message}`;
  }
}

class Instance {
  eid = "evt-1";
}
const throwing = Object.defineProperty({}, "eid", {
  enumerable: true,
  get: () => {
    throw new TypeError("getter");
  },
});

/** Values no schema expects, and the edges of the ones they do. */
const HOSTILE: readonly unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  -0,
  1,
  -1,
  1.5,
  0.5,
  NaN,
  Infinity,
  -Infinity,
  2 ** 53,
  -(2 ** 53),
  1e308,
  Number.MAX_SAFE_INTEGER,
  "",
  " ",
  "x",
  "2027-02-30",
  "2028-02-29",
  "2027-05-01",
  "2027-5-1",
  "UTILIZATION",
  "roas",
  "capacity",
  "😀",
  "\uD800",
  "\uD83D\uDE00",
  [],
  [1],
  ["a", 1, true],
  [[1]],
  [{}],
  [undefined],
  Object.assign([], { 1: 1 }), // a hole at 0
  {},
  { a: 1 },
  { length: 0 },
  { length: 3 },
  Object.create(null),
  new Map([["a", 1]]),
  new Date(0),
  new Instance(),
  throwing,
  JSON.parse('{"__proto__": {"eid": "x"}, "eid": 1}'),
  Object.create({ eid: "inherited", tc: "t" }),
  BigInt(1),
  Symbol("s"),
  () => 1,
];

const samples = sampleCalls({ eid: "evt-1", xlsx: () => new Uint8Array() }) as Record<
  string,
  { params?: { query?: unknown }; body?: unknown }
>;

/** Each leaf and branch of `seed` replaced by every hostile value, and removed. */
function* mutations(seed: unknown): Generator<unknown> {
  yield seed;
  if (typeof seed !== "object" || seed === null) return;
  const keys = Object.keys(seed);
  for (const key of keys) {
    const rest = { ...(seed as Record<string, unknown>) };
    delete rest[key];
    yield Array.isArray(seed) ? Object.values(rest) : rest;
    for (const value of HOSTILE)
      yield Array.isArray(seed) ? Object.assign([...seed], { [key]: value }) : { ...seed, [key]: value };
    for (const inner of mutations((seed as Record<string, unknown>)[key]))
      yield Array.isArray(seed) ? Object.assign([...seed], { [key]: inner }) : { ...seed, [key]: inner };
  }
  if (!Array.isArray(seed)) {
    yield { ...seed, extra: undefined, "0": 1 };
    yield Object.create(seed);
  }
}

/** A seeded generator of JSON-like values over the schemas' own keys (deterministic: mulberry32). */
function randomValues(seed: number, keys: readonly string[], count: number): unknown[] {
  let state = seed;
  const next = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const value = (depth: number): unknown => {
    const kind = next();
    if (depth > 2 || kind < 0.5) return pick(HOSTILE);
    if (kind < 0.7) return Array.from({ length: Math.floor(next() * 4) }, () => value(depth + 1));
    const out: Record<string, unknown> = {};
    for (let i = Math.floor(next() * 6); i > 0; i--) out[pick(keys)] = value(depth + 1);
    return out;
  };
  return Array.from({ length: count }, () => value(0));
}

const KEYS = [
  "eid",
  "tc",
  "tc_run_id",
  "goal",
  "total_budget",
  "start_date",
  "end_date",
  "from",
  "to",
  "tickets",
  "type",
  "sold",
  "revenue",
  "limit",
  "page",
  "budget",
  "params",
  "status",
  "events",
  "username",
  "token",
  "creatives",
  "x",
];

function expectSame(name: string, a: Parser, b: Parser, values: Iterable<unknown>): number {
  let n = 0;
  for (const value of values) {
    expect(outcome(b, value), `${name} #${n}`).toEqual(outcome(a, value));
    n++;
  }
  return n;
}

describe("the browser build's request validators read values as the server's", () => {
  type Table = Readonly<Record<string, { query?: Parser; body?: Parser }>>;
  const table = (v: object): Table => (v as { requestValidators: Table }).requestValidators;

  it("every query and body schema of every operation: sample calls, hostile fields, random values", () => {
    const keys = Object.keys(table(server));
    expect(Object.keys(table(browser))).toEqual(keys);
    let compared = 0;
    for (const key of keys) {
      for (const part of ["query", "body"] as const) {
        const a = table(server)[key]?.[part];
        const b = table(browser)[key]?.[part];
        expect(Boolean(b), `${key} ${part}`).toBe(Boolean(a));
        if (!a || !b) continue;
        const seed = part === "query" ? samples[key]?.params?.query : samples[key]?.body;
        compared += expectSame(`${key} ${part}`, a, b, [...HOSTILE, ...mutations(seed ?? {})]);
        compared += expectSame(`${key} ${part} (random)`, a, b, randomValues(key.length * 7919, KEYS, 400));
      }
    }
    expect(compared).toBeGreaterThan(10_000);
  });

  it("the named schemas alike, and what an extra enumerable key on Object.prototype does to both", () => {
    const names = Object.keys(server).filter((n) => n !== "requestValidators");
    expect(
      Object.keys(browser)
        .filter((n) => n !== "requestValidators")
        .sort(),
    ).toEqual([...names].sort());
    const pick = (v: object, n: string) => (v as Record<string, Parser>)[n] as Parser;
    for (const name of names)
      expectSame(name, pick(server, name), pick(browser, name), [...HOSTILE, ...randomValues(name.length, KEYS, 200)]);
    const proto = Object.prototype as Record<string, unknown>;
    try {
      proto.polluted = { not: "a query value" };
      proto.goal = "NOT_A_GOAL";
      for (const name of names)
        expectSame(`${name} polluted`, pick(server, name), pick(browser, name), [{}, { params: {} }, ...HOSTILE]);
      const params = table(server)["POST /campaigns/"]?.query as Parser;
      expectSame("params polluted", params, table(browser)["POST /campaigns/"]?.query as Parser, [
        { params: { a: 1 } },
        { params: {} },
      ]);
    } finally {
      delete proto.polluted;
      delete proto.goal;
    }
  });

  it("200 000 bad rows: both refuse, neither hangs (zod's spread of the issues may overflow: both alike)", () => {
    const rows = Array.from({ length: 200_000 }, () => ({ type: 1, sold: "x", revenue: null }));
    const body = { eid: "e", from: "2027-01-01", to: "2027-01-02", tickets: rows };
    expect(outcome(browser.TransactionSummary as Parser, body)).toEqual(outcome(server.TransactionSummary, body));
  });

  it("the keywords the emitter supports beyond today's description (strict objects, patterns, minItems, nested unions)", () => {
    // Built from the same calls on either namespace, as the emitter would write them.
    const build = (z: typeof subset) => [
      z.strictObject({
        a: z.string().check(z.regex(/^[a-z]+$/)),
        b: z.optional(z.array(z.number()).check(z.minLength(2))),
      }),
      z.object({ u: z.union([z.string().check(z.minLength(3)), z.number().check(z.gt(1))]), n: z.unknown() }),
      z.array(z.union([z.boolean(), z.array(z.union([z.string(), z.number()]))])).check(z.minLength(1)),
      z.union([
        z.pipe(
          z.custom((v) => typeof v === "object" && v !== null, "must be an object"),
          z.object({ k: z.string() }),
        ),
        z.string(),
      ]),
      z.looseObject({
        e: z.enum(["A", "B"]),
        o: z.optional(z.number().check(z.refine(Number.isSafeInteger, "must be an integer"), z.gte(1))),
      }),
    ];
    const theirs = build(zod as unknown as typeof subset);
    const ours = build(subset);
    const corpus = [
      ...HOSTILE,
      { a: "abc" },
      { a: "ABC", b: [1] },
      { a: "abc", extra: 1, __x: 2 },
      { u: "ab", n: 1 },
      { u: 1 },
      { u: 2 },
      { u: "abcd" },
      { u: "a😀" },
      { u: "😀😀" },
      { u: "😀😀😀" },
      { a: "\uD800\uD800" },
      [true, ["a", 1]],
      [[null]],
      { e: "C", o: 0.5 },
      { e: "A", o: 0 },
      { e: "A" },
      { k: 1 },
      { k: "k" },
      ...randomValues(11, ["a", "b", "u", "n", "e", "o", "extra"], 400),
    ];
    for (const [i, schema] of theirs.entries())
      expectSame(`synthetic ${i}`, schema as Parser, ours[i] as Parser, corpus);
  });
});
