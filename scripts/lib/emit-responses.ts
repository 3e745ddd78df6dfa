/**
 * Emits generated/responses.ts: what the description says each operation answers — its statuses,
 * their media types, and the shape of each JSON body as far as the description shows it (types,
 * required properties, array items; `additionalProperties` and undocumented fields are left open).
 * The one definition of drift (src/drift/) reads it, for `onDrift` and `npm run contract:live`.
 */
// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document read as loose JSON; each field is checked where it is used
type Doc = Record<string, any>;

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"] as const;
const PRIMITIVES = new Set(["string", "integer", "number", "boolean"]);

/** A shape, compactly: "s" string, "i" integer, "n" number, "b" boolean, a named shape, or an object/array. */
type Shape = string | { o: Record<string, Shape>; r?: string[] } | { a: Shape };

const refName = (ref: string): string => ref.split("/").pop() as string;

function shapeOf(schema: Doc | undefined, doc: Doc, named: Map<string, Shape | null>): Shape | undefined {
  if (!schema || typeof schema !== "object") return undefined;
  if (schema.$ref) {
    const name = refName(schema.$ref);
    if (!named.has(name)) {
      named.set(name, null); // a cycle resolves to the name itself
      const shape = shapeOf(doc.components?.schemas?.[name], doc, named);
      named.set(name, shape ?? null);
    }
    return named.get(name) === null ? undefined : `#${name}`;
  }
  const type = Array.isArray(schema.type) ? undefined : schema.type;
  if (type && PRIMITIVES.has(type)) return type[0] as string;
  if (type === "array") {
    const items = shapeOf(schema.items, doc, named);
    return items === undefined ? { a: "" } : { a: items };
  }
  if (type === "object" || schema.properties) {
    const o: Record<string, Shape> = {};
    for (const [key, value] of Object.entries<Doc>(schema.properties ?? {})) {
      const shape = shapeOf(value, doc, named);
      if (shape !== undefined) o[key] = shape;
    }
    const required = (schema.required ?? []).filter((r: unknown) => typeof r === "string") as string[];
    if (Object.keys(o).length === 0 && required.length === 0) return undefined;
    return required.length ? { o, r: required } : { o };
  }
  if (schema.allOf) {
    // The first part that has a shape (the description's allOf extend an object with more fields).
    for (const part of schema.allOf) {
      const shape = shapeOf(part, doc, named);
      if (shape !== undefined) return shape;
    }
  }
  return undefined;
}

export function emitResponses(doc: Doc, header: string): string {
  const named = new Map<string, Shape | null>();
  const table: Record<string, Record<string, [string, string] | [string] | []>> = {};
  for (const [path, item] of Object.entries<Doc>(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op?.responses) continue;
      const rows: Record<string, [string, string] | [string] | []> = {};
      for (const [status, raw] of Object.entries<Doc>(op.responses)) {
        const response = raw.$ref ? doc.components?.responses?.[refName(raw.$ref)] : raw;
        const [mediaType, media] = Object.entries<Doc>(response?.content ?? {})[0] ?? [];
        if (!mediaType) {
          rows[status] = [];
          continue;
        }
        const shape = shapeOf(media?.schema, doc, named);
        rows[status] = typeof shape === "string" && shape.startsWith("#") ? [mediaType, shape.slice(1)] : [mediaType];
      }
      table[`${method.toUpperCase()} ${path}`] = rows;
    }
  }
  const shapes = Object.fromEntries([...named].filter(([, s]) => s !== null).sort(([a], [b]) => a.localeCompare(b)));
  return `${header}
/**
 * A body's shape as the description shows it: "s" string, "i" integer, "n" number, "b" boolean,
 * "#Name" a shape below, \`{ o: properties, r: required }\` an object (other properties allowed),
 * \`{ a: items }\` an array ("" items: any).
 */
export type Shape = string | { readonly o: Readonly<Record<string, Shape>>; readonly r?: readonly string[] } | { readonly a: Shape };

/** The named shapes of the description's schemas (only those with something to check). */
export const shapes: Readonly<Record<string, Shape>> = ${JSON.stringify(shapes)};

/**
 * Per operation (\`METHOD /path\`), per declared status: [media type, shape name] — or [media type]
 * when the body's shape is not shown, or [] when the response has no body.
 */
export const responses: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = ${JSON.stringify(table)};
`;
}
