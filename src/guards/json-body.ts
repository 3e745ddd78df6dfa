/**
 * A JSON body openapi-fetch cannot serialize fails inside `JSON.stringify` with a raw error: a
 * RangeError when it nests a few thousand levels deep (the serializer recurses), a TypeError for a
 * cycle or a BigInt. What it would send as something else without a word is refused too: NaN,
 * Infinity, an invalid Date, and an array's holes, undefined, functions and symbols become `null`,
 * a Map or Set `{}` (a value lost in silence). The body is walked first,
 * with an explicit stack (no recursion of our own), and such a body is refused as the caller's
 * input, naming it.
 */
import type { ValidationIssue } from "../errors/validation-error.ts";

/** Arrays and plain objects: what `JSON.stringify` walks into (class instances, buffers and forms are left alone). */
export function isContainer(value: unknown): value is object {
  if (typeof value !== "object" || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return Array.isArray(value) || proto === null || Object.getPrototypeOf(proto) === null;
}

/** Why JSON cannot send `value` (not an array or plain object) as it is; undefined when it can. */
function leafIssue(value: unknown): string | undefined {
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

export function jsonBodyIssues(body: unknown, maxDepth: number): ValidationIssue[] {
  const why = isContainer(body) ? containerIssue(body, maxDepth) : leafIssue(body); // most calls: no body
  return why ? [{ field: "body", message: `${why}; it cannot be sent as JSON` }] : [];
}

function containerIssue(body: object, maxDepth: number): string | undefined {
  const onPath = new Set<object>(); // the containers that hold the one being visited
  // [node, depth]; a negative depth marks the moment a container's children are all done.
  const stack: Array<[unknown, number]> = [[body, 1]];
  let why: string | undefined;
  for (let step = stack.pop(); step && !why; step = stack.pop()) {
    const [node, depth] = step;
    if (depth < 0) onPath.delete(node as object);
    else if (!isContainer(node)) why = leafIssue(node);
    else if (onPath.has(node)) why = "contains a cycle";
    else if (depth > maxDepth) why = `is nested more than ${maxDepth} levels deep`;
    else {
      const children = Object.values(node);
      // Fewer elements than its length: holes (a sparse array's whole length of them when sent).
      if (Array.isArray(node) && (children.length < node.length || children.some(nullInArray)))
        why = "holds an array with a hole, undefined, a function or a symbol, which JSON sends as null";
      onPath.add(node);
      stack.push([node, -1]);
      for (const child of children) stack.push([child, depth + 1]);
    }
  }
  return why;
}
