/**
 * A JSON body openapi-fetch cannot serialize fails inside `JSON.stringify` with a raw error: a
 * RangeError when it nests a few thousand levels deep (the serializer recurses), a TypeError for a
 * cycle or a BigInt. What it would send as something else without a word is refused too: NaN,
 * Infinity and an array's holes become `null`, a Map or Set `{}` (a value lost in silence). The body is walked first,
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

/** What JSON.stringify turns into `{}` without a word (a Map's or Set's entries are not own fields). */
const isLost = (value: unknown): boolean => value instanceof Map || value instanceof Set;

export function jsonBodyIssues(body: unknown, maxDepth: number): ValidationIssue[] {
  // Most calls: no body, or a string.
  if (typeof body !== "bigint" && typeof body !== "number" && !isContainer(body) && !isLost(body)) return [];
  const onPath = new Set<object>(); // the containers that hold the one being visited
  // [node, depth]; a negative depth marks the moment a container's children are all done.
  const stack: Array<[unknown, number]> = [[body, 1]];
  let why: string | undefined;
  for (let step = stack.pop(); step && !why; step = stack.pop()) {
    const [node, depth] = step;
    if (depth < 0) onPath.delete(node as object);
    else if (typeof node === "bigint") why = "holds a BigInt";
    else if (typeof node === "number" && !Number.isFinite(node))
      why = "holds NaN or Infinity, which JSON sends as null";
    else if (isLost(node)) why = "holds a Map or Set, which JSON sends as {}";
    else if (!isContainer(node)) continue;
    else if (onPath.has(node)) why = "contains a cycle";
    else if (depth > maxDepth) why = `is nested more than ${maxDepth} levels deep`;
    else {
      const children = Object.values(node);
      // Fewer elements than its length: holes, which JSON sends as null (and a sparse array's length of them).
      if (Array.isArray(node) && children.length < node.length)
        why = "holds an array with holes, which JSON sends as null";
      onPath.add(node);
      stack.push([node, -1]);
      for (const child of children) stack.push([child, depth + 1]);
    }
  }
  return why ? [{ field: "body", message: `${why}; it cannot be sent as JSON` }] : [];
}
