/**
 * Where two vendor files differ in prose or metadata: text and settings that reach the shipped
 * package (generated/openapi.json, the doc comments of generated/schema.ts) and the people who
 * read it, but no type a caller compiles against. A pull request that carries any such change is
 * never merged automatically (scripts/vendor-pr.ts): a person reads what the vendor wrote.
 *
 * Counted: `info` (all of it but `version`, which is held to a plain token instead), `servers`,
 * the top-level `tags` and `externalDocs`, and anywhere in the file `description`, `summary`,
 * `title`, `example`, `examples`, `externalDocs`, `$comment`, an operation's `tags`, and `x-`
 * extensions. New prose counts as much as changed prose: a new operation with a summary is a
 * change a person reads. A key under `properties` is a field's name, not prose.
 */
import { isObject, type Json } from "./json-ref.ts";

const PROSE_KEYS = new Set(["description", "summary", "title", "example", "examples", "externalDocs", "$comment"]);
const TOP_LEVEL = new Set(["info", "servers", "tags", "externalDocs"]);
const NAME_MAPS = new Set(["properties", "patternProperties"]);

const escapePart = (part: string) => part.replaceAll("~", "~0").replaceAll("/", "~1");
const same = (a: Json | undefined, b: Json | undefined) => JSON.stringify(a) === JSON.stringify(b);

function isProse(key: string, parentKey: string | undefined, depth: number): boolean {
  if (parentKey !== undefined && NAME_MAPS.has(parentKey)) return false;
  if (depth === 0) return TOP_LEVEL.has(key) || PROSE_KEYS.has(key) || key.startsWith("x-");
  return PROSE_KEYS.has(key) || key === "servers" || key.startsWith("x-") || (key === "tags" && depth === 3);
}

/** An object's or an array's members by key (an array's by index); nothing for a scalar. */
const entriesOf = (node: Json | undefined): { [key: string]: Json } =>
  isObject(node) ? node : Array.isArray(node) ? Object.fromEntries(node.map((v, i) => [String(i), v])) : {};

/** JSON pointers (into the file after the change, or before for what was removed) of every prose or metadata difference. */
export function proseOrMetadataChanges(before: Json | undefined, after: Json | undefined): string[] {
  const found: string[] = [];
  const walk = (
    b: Json | undefined,
    a: Json | undefined,
    pointer: string,
    parentKey: string | undefined,
    depth: number,
  ) => {
    if (same(b, a)) return;
    const bo = entriesOf(b);
    const ao = entriesOf(a);
    for (const key of new Set([...Object.keys(bo), ...Object.keys(ao)])) {
      const at = `${pointer}/${escapePart(key)}`;
      if (same(bo[key], ao[key])) continue;
      if (depth === 0 && key === "info") {
        const { version: _b, ...restBefore } = isObject(bo.info) ? bo.info : {};
        const { version: _a, ...restAfter } = isObject(ao.info) ? ao.info : {};
        for (const k of new Set([...Object.keys(restBefore), ...Object.keys(restAfter)]))
          if (!same(restBefore[k], restAfter[k])) found.push(`${at}/${escapePart(k)}`);
      } else if (isProse(key, parentKey, depth)) found.push(at);
      else walk(bo[key], ao[key], at, Array.isArray(b ?? a) ? parentKey : key, depth + 1);
    }
  };
  walk(before, after, "#", undefined, 0);
  return found;
}
