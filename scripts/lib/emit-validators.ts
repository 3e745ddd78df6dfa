/**
 * Emits generated/validators.ts: zod/mini schemas for every component schema a JSON request body
 * reaches (plus the enums used in queries), translated from the description so they cannot drift.
 * Only the JSON Schema keywords the description uses are supported; anything else fails loudly.
 *
 * The emitted code keeps to the zod features that cost little in a browser bundle (the 20 KB
 * up-front target): `format: date` and `integer` are refinements (`date()`, `int()` in the emitted
 * file) rather than `z.iso.date()` (which bundles zod's ISO regexes, ~0.9 KB gzip) and `z.int()`
 * (zod's number formats, ~0.45 KB), with the same acceptance; a map (`additionalProperties` only)
 * is a plain-object check piped into an object with a catchall rather than `z.record` (~0.3 KB
 * less); and a query schema several operations share is emitted once.
 */
// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI schema read as loose JSON; each keyword is checked where it is used
type Schema = Record<string, any>;

const SUPPORTED = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "format",
  "minLength",
  "minimum",
  "exclusiveMinimum",
  "minItems",
  "pattern",
  "description",
  "$ref",
  "contentMediaType",
  "anyOf",
  "examples",
]);

function refName(ref: string): string {
  return ref.replace("#/components/schemas/", "");
}

function collectRefs(schema: unknown, into: Set<string>): void {
  if (Array.isArray(schema)) {
    for (const s of schema) collectRefs(s, into);
    return;
  }
  if (!schema || typeof schema !== "object") return;
  for (const [k, v] of Object.entries(schema)) {
    if (k === "$ref" && typeof v === "string" && v.startsWith("#/components/schemas/")) into.add(refName(v));
    else collectRefs(v, into);
  }
}

function toZod(s: Schema, where: string): string {
  for (const key of Object.keys(s)) {
    if (!SUPPORTED.has(key)) throw new Error(`${where}: keyword "${key}" is not supported by emit-validators`);
  }
  if (s.$ref) return refName(s.$ref);
  if (s.enum) return `z.enum(${JSON.stringify(s.enum)})`;
  // A union inside a union (`anyOf` of a `type: [..]`) is flattened: the same values pass.
  if (s.anyOf) return union(s.anyOf.map((x: Schema, i: number) => toZod(x, `${where}|${i}`)));
  if (Array.isArray(s.type)) return union(s.type.map((t: string) => toZod({ type: t }, where)));
  const checks: string[] = [];
  let base: string;
  switch (s.type) {
    case "string":
      base = s.format === "date" ? "date()" : "z.string()";
      if (s.minLength !== undefined) checks.push(`z.minLength(${s.minLength})`);
      if (s.pattern !== undefined) checks.push(`z.regex(new RegExp(${JSON.stringify(s.pattern)}))`);
      break;
    case "number":
    case "integer":
      base = s.type === "integer" ? "int()" : "z.number()";
      if (s.minimum !== undefined) checks.push(`z.gte(${s.minimum})`);
      if (s.exclusiveMinimum !== undefined) checks.push(`z.gt(${s.exclusiveMinimum})`);
      break;
    case "boolean":
      base = "z.boolean()";
      break;
    case "array":
      base = `z.array(${s.items ? toZod(s.items, `${where}[]`) : "z.unknown()"})`;
      if (s.minItems !== undefined) checks.push(`z.minLength(${s.minItems})`);
      break;
    case "object": {
      if (!s.properties && typeof s.additionalProperties === "object") {
        base = `map(${toZod(s.additionalProperties, `${where}.*`)})`;
        break;
      }
      const required = new Set<string>(s.required ?? []);
      const props = Object.entries<Schema>(s.properties ?? {}).map(([k, v]) => {
        const inner = toZod(v, `${where}.${k}`);
        return `${JSON.stringify(k)}: ${required.has(k) ? inner : `z.optional(${inner})`}`;
      });
      // Same reading as openapi-typescript: `true` adds an index signature, absent accepts extra
      // keys without typing them, `false` refuses them.
      const ctor =
        s.additionalProperties === false
          ? "z.strictObject"
          : s.additionalProperties === true
            ? "z.looseObject"
            : "z.object";
      base = `${ctor}({ ${props.join(", ")} })`;
      break;
    }
    case undefined:
      base = "z.unknown()";
      break;
    default:
      throw new Error(`${where}: type "${String(s.type)}" is not supported by emit-validators`);
  }
  return checks.length ? `${base}.check(${checks.join(", ")})` : base;
}

const UNION = /^z\.union\(\[(.*)\]\)$/s;

function union(members: string[]): string {
  return `z.union([${members.map((m) => UNION.exec(m)?.[1] ?? m).join(", ")}])`;
}

function resolveParameter(doc: Schema, p: Schema): Schema {
  if (!p.$ref) return p;
  const name = String(p.$ref).replace("#/components/parameters/", "");
  const found = doc.components?.parameters?.[name];
  if (!found) throw new Error(`unknown parameter ${p.$ref}`);
  return found;
}

/**
 * Per operation: a zod schema of its query parameters and of its JSON body, where it has them.
 * A query schema that several operations share is hoisted into one `Query_<names>` constant.
 */
function operationTable(doc: Schema): { shared: string[]; rows: string[] } {
  const entries: Array<{ where: string; query?: { names: string[]; code: string }; body?: string }> = [];
  for (const [path, item] of Object.entries<Schema>(doc.paths ?? {})) {
    for (const method of ["get", "put", "post", "delete", "patch"]) {
      const op = item[method];
      if (!op) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const params = (op.parameters ?? [])
        .map((p: Schema) => resolveParameter(doc, p))
        .filter((p: Schema) => p.in === "query");
      const entry: (typeof entries)[number] = { where };
      if (params.length) {
        const props = params.map((p: Schema) => {
          const inner = toZod(p.schema ?? {}, `${where} ?${p.name}`);
          return `${JSON.stringify(p.name)}: ${p.required ? inner : `z.optional(${inner})`}`;
        });
        entry.query = {
          names: params.map((p: Schema) => String(p.name)),
          code: `z.looseObject({ ${props.join(", ")} })`,
        };
      }
      const body = op.requestBody?.content?.["application/json"]?.schema;
      if (body) entry.body = toZod(body, `${where} body`);
      if (entry.query || entry.body) entries.push(entry);
    }
  }
  entries.sort((a, b) => (a.where < b.where ? -1 : a.where > b.where ? 1 : 0));
  const uses = new Map<string, number>();
  for (const e of entries) if (e.query) uses.set(e.query.code, (uses.get(e.query.code) ?? 0) + 1);
  const names = new Map<string, string>();
  const shared: string[] = [];
  for (const e of entries) {
    if (!e.query || (uses.get(e.query.code) ?? 0) < 2 || names.has(e.query.code)) continue;
    const base = `Query_${e.query.names.map((n) => n.replace(/\W/g, "_")).join("_")}`;
    let name = base;
    for (let i = 2; [...names.values()].includes(name); i++) name = `${base}${i}`;
    names.set(e.query.code, name);
    shared.push(`const ${name} = ${e.query.code};`);
  }
  const rows = entries.map((e) => {
    const parts = [
      ...(e.query ? [`query: ${names.get(e.query.code) ?? e.query.code}`] : []),
      ...(e.body ? [`body: ${e.body}`] : []),
    ];
    return `  ${JSON.stringify(e.where)}: { ${parts.join(", ")} },`;
  });
  return { shared, rows };
}

/**
 * Where the emitted code takes `z` from: zod/mini (generated/validators.ts, the server build), or
 * the subset of its API that the browser build uses instead (generated/validators.browser.ts,
 * src/guards/zod-subset.ts). The schemas are the same text in both.
 */
export const VALIDATOR_RUNTIMES = {
  "validators.ts": "zod/mini",
  "validators.browser.ts": "../src/guards/zod-subset.ts",
} as const;

export function emitValidators(
  doc: Schema,
  header: string,
  from: string = VALIDATOR_RUNTIMES["validators.ts"],
): string {
  const schemas: Record<string, Schema> = doc.components?.schemas ?? {};
  const roots = new Set<string>(["Goal"]);
  for (const item of Object.values<Schema>(doc.paths ?? {})) {
    for (const op of Object.values<Schema>(item)) {
      collectRefs(op?.requestBody?.content?.["application/json"], roots);
    }
  }
  // Close over references, then order so that every schema follows those it uses.
  const ordered: string[] = [];
  const visit = (name: string, trail: string[]): void => {
    if (ordered.includes(name)) return;
    if (trail.includes(name)) throw new Error(`recursive schema ${[...trail, name].join(" -> ")}`);
    const schema = schemas[name];
    if (!schema) throw new Error(`unknown schema ${name}`);
    const deps = new Set<string>();
    collectRefs(schema, deps);
    for (const d of [...deps].sort()) visit(d, [...trail, name]);
    ordered.push(name);
  };
  for (const r of [...roots].sort()) visit(r, []);
  const body = ordered.map((name) => {
    const s = schemas[name] as Schema;
    const doc1 = s.description ? `/** ${String(s.description).replace(/\*\//g, "*\\/")} */\n` : "";
    return `${doc1}export const ${name} = ${toZod(s, name)};`;
  });
  const table = operationTable(doc);
  return `${header}
import * as z from "${from}";
import { isCalendarDate } from "./formats.ts";

// What z.iso.date(), z.int() and z.record() accept (see scripts/lib/emit-validators.ts).
const date = () => z.string().check(z.refine(isCalendarDate, "must be a real calendar date YYYY-MM-DD"));
const int = () => z.number().check(z.refine(Number.isSafeInteger, "must be an integer"));
/** \`additionalProperties\` only: a plain object, any keys. (z.object alone would pass a Map or a class instance, with no entries.) */
const map = <T extends z.ZodMiniType>(values: T) => z.pipe(z.custom<object>(isPlainObject, "must be a plain object"), z.catchall(z.object({}), values));

/** An object whose prototype is null or a root one (of any realm). */
function isPlainObject(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

${body.join("\n\n")}

${table.shared.join("\n\n")}

/** Query and JSON-body schemas of each operation, keyed by \`METHOD /path\`. */
export const requestValidators: Readonly<Record<string, { query?: z.ZodMiniType; body?: z.ZodMiniType }>> = {
${table.rows.join("\n")}
};
`;
}

/**
 * Emits generated/formats.ts: the checks of the description's string formats, without zod, so that
 * the hand-written rules can use them without loading the validators (which load zod lazily).
 */
export function emitFormats(header: string): string {
  return `${header}
/** \`format: date\`: a real calendar date, \`YYYY-MM-DD\` (2027-02-30 is refused). */
export function isCalendarDate(value: unknown): value is string {
  return typeof value === "string" && /^\\d{4}-\\d{2}-\\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)) && new Date(value).toISOString().startsWith(value);
}
`;
}
