/** JSON values of an OpenAPI document, and its local `$ref`s resolved (shared by vendor:update's steps). */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Doc = { [key: string]: Json };

export const isObject = (value: Json | undefined): value is { [key: string]: Json } =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The node a local JSON pointer (`#/components/schemas/Event`) names, if any. */
export function lookup(doc: Doc, ref: string): Json | undefined {
  if (!ref.startsWith("#/")) return undefined;
  let node: Json | undefined = doc;
  for (const raw of ref.slice(2).split("/")) {
    const part = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    node = isObject(node) ? node[part] : Array.isArray(node) ? node[Number(part)] : undefined;
  }
  return node;
}

/** Resolves local `$ref`s; a cycle is left as `{ $ref }` where it closes. */
export function deref(doc: Doc, node: Json, stack: readonly string[] = []): Json {
  if (Array.isArray(node)) return node.map((n) => deref(doc, n, stack));
  if (!isObject(node)) return node;
  const ref = node.$ref;
  if (typeof ref === "string") {
    const target = lookup(doc, ref);
    if (target === undefined || stack.includes(ref)) return { $ref: ref };
    return deref(doc, target, [...stack, ref]);
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, deref(doc, v, stack)]));
}
