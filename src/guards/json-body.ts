/**
 * A JSON body openapi-fetch cannot serialize fails inside `JSON.stringify` with a raw error: a
 * RangeError when it nests a few thousand levels deep (the serializer recurses), a TypeError for a
 * cycle or a BigInt. What it would send as something else without a word is refused too: NaN,
 * Infinity, an invalid Date, and an array's holes, undefined, functions and symbols become `null`,
 * a Map or Set `{}` (a value lost in silence). The body is walked first, with an explicit stack
 * (no recursion of our own), and such a body is refused as the caller's input, naming the field
 * where it was found (`body.rows.0.sold`).
 */
import type { ValidationIssue } from "../errors/validation-error.ts";
import { keyField } from "../internal/key-field.ts";

/** Arrays and plain objects: what `JSON.stringify` walks into (class instances, buffers and forms are left alone). */
export function isContainer(value: unknown): value is object {
  if (typeof value !== "object" || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return Array.isArray(value) || proto === null || Object.getPrototypeOf(proto) === null;
}

/** Why JSON cannot send `value` (not an array or plain object) as it is; undefined when it can. */
function leafIssue(value: unknown): string | undefined {
  if (typeof value === "string" || typeof value === "boolean" || value === null) return undefined; // most leaves
  if (typeof value === "bigint") return "holds a BigInt";
  if (typeof value === "number" && !Number.isFinite(value)) return "holds NaN or Infinity, which JSON sends as null";
  // A Map's or Set's entries are not own fields.
  if (value instanceof Map || value instanceof Set) return "holds a Map or Set, which JSON sends as {}";
  if (value instanceof Date && Number.isNaN(value.getTime())) return "holds an invalid Date, which JSON sends as null";
  return undefined;
}

/** What JSON sends as null in an array (in an object it leaves the field out, as an optional field is left out). */
const nullInArray = (value: unknown): boolean =>
  value === undefined || typeof value === "function" || typeof value === "symbol";

/** The fields an issue names, at most: a body nested 1 000 deep would make a field of 1 000 keys. */
const MAX_FIELD_KEYS = 32;

export function jsonBodyIssues(body: unknown, maxDepth: number): ValidationIssue[] {
  if (!isContainer(body)) {
    const why = leafIssue(body); // most calls: no body, or a string
    return why ? [issueAt(why, undefined)] : [];
  }
  const { why, at } = containerIssue(body, maxDepth);
  return why ? [issueAt(why, at)] : [];
}

/** The issue, naming the field it was found at (its keys while they are plain names, internal/key-field.ts). */
function issueAt(why: string, at: Step | undefined): ValidationIssue {
  const keys: string[] = [];
  for (let step = at; step?.[3]; step = step[3]) keys.unshift(String(step[2]));
  return { field: keyField("body", ...keys.slice(0, MAX_FIELD_KEYS)), message: `${why}; it cannot be sent as JSON` };
}

/** A node of the walk: its value, depth, key in its parent, and its parent's step (for the field). */
type Step = [node: unknown, depth: number, key: string | number | undefined, up: Step | undefined];

function containerIssue(body: object, maxDepth: number): { why: string | undefined; at: Step | undefined } {
  const onPath = new Set<object>(); // the containers that hold the one being visited
  // Containers only (a leaf is checked where it is met); a negative depth marks the moment a
  // container's children are all done.
  const stack: Step[] = [[body, 1, undefined, undefined]];
  for (let step = stack.pop(); step; step = stack.pop()) {
    const [node, depth] = step;
    if (depth < 0) {
      onPath.delete(node as object);
      continue;
    }
    // Too deep is the whole body's issue: its field would be a thousand keys long.
    if (depth > maxDepth) return { why: `is nested more than ${maxDepth} levels deep`, at: undefined };
    if (onPath.has(node as object)) return { why: "contains a cycle", at: step };
    // An array's elements by index (Object.keys of a long array costs a string per element).
    const keys = Array.isArray(node) ? undefined : Object.keys(node as object);
    const values = keys ? undefined : Object.values(node as object);
    // Fewer elements than its length: holes (a sparse array's whole length of them when sent).
    if (values && values.length < (node as unknown[]).length) return { why: NULL_IN_ARRAY, at: step };
    onPath.add(node as object);
    stack.push([node, -1, undefined, undefined]);
    const count = keys ? keys.length : (values as unknown[]).length;
    for (let i = 0; i < count; i++) {
      const child = keys ? (node as Record<string, unknown>)[keys[i] as string] : (values as unknown[])[i];
      if (isContainer(child)) stack.push([child, depth + 1, keys ? keys[i] : i, step]);
      else if (values && nullInArray(child)) return { why: NULL_IN_ARRAY, at: step };
      else {
        const why = leafIssue(child);
        if (why) return { why, at: [child, depth + 1, keys ? keys[i] : i, step] };
      }
    }
  }
  return { why: undefined, at: undefined };
}

const NULL_IN_ARRAY = "holds an array with a hole, undefined, a function or a symbol, which JSON sends as null";
