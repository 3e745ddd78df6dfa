/**
 * Emits generated/validators.ts: zod/mini schemas for every component schema a JSON request body
 * reaches (plus the enums used in queries), translated from the description so they cannot drift.
 * Only the JSON Schema keywords the description uses are supported; anything else fails loudly.
 */
type Schema = Record<string, any>;

const SUPPORTED = new Set([
  "type", "properties", "required", "additionalProperties", "items", "enum", "format", "minLength",
  "minimum", "minItems", "pattern", "description", "$ref", "contentMediaType", "anyOf", "examples",
]);

function refName(ref: string): string {
  return ref.replace("#/components/schemas/", "");
}

function collectRefs(schema: unknown, into: Set<string>): void {
  if (Array.isArray(schema)) return schema.forEach((s) => collectRefs(s, into));
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
  if (s.anyOf) return `z.union([${s.anyOf.map((x: Schema, i: number) => toZod(x, `${where}|${i}`)).join(", ")}])`;
  if (Array.isArray(s.type)) return `z.union([${s.type.map((t: string) => toZod({ type: t }, where)).join(", ")}])`;
  const checks: string[] = [];
  let base: string;
  switch (s.type) {
    case "string":
      base = s.format === "date" ? "z.iso.date()" : "z.string()";
      if (s.minLength !== undefined) checks.push(`z.minLength(${s.minLength})`);
      if (s.pattern !== undefined) checks.push(`z.regex(new RegExp(${JSON.stringify(s.pattern)}))`);
      break;
    case "number":
    case "integer":
      base = s.type === "integer" ? "z.int()" : "z.number()";
      if (s.minimum !== undefined) checks.push(`z.gte(${s.minimum})`);
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
        base = `z.record(z.string(), ${toZod(s.additionalProperties, `${where}.*`)})`;
        break;
      }
      const required = new Set<string>(s.required ?? []);
      const props = Object.entries<Schema>(s.properties ?? {}).map(([k, v]) => {
        const inner = toZod(v, `${where}.${k}`);
        return `${JSON.stringify(k)}: ${required.has(k) ? inner : `z.optional(${inner})`}`;
      });
      // Same reading as openapi-typescript: `true` adds an index signature, absent accepts extra
      // keys without typing them, `false` refuses them.
      const ctor = s.additionalProperties === false ? "z.strictObject" : s.additionalProperties === true ? "z.looseObject" : "z.object";
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

function resolveParameter(doc: Schema, p: Schema): Schema {
  if (!p.$ref) return p;
  const name = String(p.$ref).replace("#/components/parameters/", "");
  const found = doc.components?.parameters?.[name];
  if (!found) throw new Error(`unknown parameter ${p.$ref}`);
  return found;
}

/** Per operation: a zod schema of its query parameters and of its JSON body, where it has them. */
function operationTable(doc: Schema): string[] {
  const rows: string[] = [];
  for (const [path, item] of Object.entries<Schema>(doc.paths ?? {})) {
    for (const method of ["get", "put", "post", "delete", "patch"]) {
      const op = item[method];
      if (!op) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const query = (op.parameters ?? []).map((p: Schema) => resolveParameter(doc, p)).filter((p: Schema) => p.in === "query");
      const parts: string[] = [];
      if (query.length) {
        const props = query.map((p: Schema) => {
          const inner = toZod(p.schema ?? {}, `${where} ?${p.name}`);
          return `${JSON.stringify(p.name)}: ${p.required ? inner : `z.optional(${inner})`}`;
        });
        parts.push(`query: z.looseObject({ ${props.join(", ")} })`);
      }
      const body = op.requestBody?.content?.["application/json"]?.schema;
      if (body) parts.push(`body: ${toZod(body, `${where} body`)}`);
      if (parts.length) rows.push(`  ${JSON.stringify(where)}: { ${parts.join(", ")} },`);
    }
  }
  return rows.sort();
}

export function emitValidators(doc: Schema, header: string): string {
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
  [...roots].sort().forEach((r) => visit(r, []));
  const body = ordered.map((name) => {
    const s = schemas[name] as Schema;
    const doc1 = s.description ? `/** ${String(s.description).replace(/\*\//g, "*\\/")} */\n` : "";
    return `${doc1}export const ${name} = ${toZod(s, name)};`;
  });
  return `${header}
import * as z from "zod/mini";

${body.join("\n\n")}

/** Query and JSON-body schemas of each operation, keyed by \`METHOD /path\`. */
export const requestValidators: Readonly<Record<string, { query?: z.ZodMiniType; body?: z.ZodMiniType }>> = {
${operationTable(doc).join("\n")}
};
`;
}
