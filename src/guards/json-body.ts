/**
 * A JSON body openapi-fetch cannot serialize fails inside `JSON.stringify` with a raw error: a
 * RangeError when it nests a few thousand levels deep (the serializer recurses), a TypeError for a
 * cycle or a BigInt. The body is walked first, with an explicit stack (no recursion of our own),
 * and such a body is refused as the caller's input, naming it.
 */
import type { ValidationIssue } from "../errors/validation-error.ts";

/** Arrays and plain objects: what `JSON.stringify` walks into (class instances, buffers and forms are left alone). */
function isContainer(value: unknown): value is object {
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

export function jsonBodyIssues(body: unknown, maxDepth: number): ValidationIssue[] {
  const refuse = (why: string): ValidationIssue[] => [{ field: "body", message: `${why}; it cannot be sent as JSON` }];
  const onPath = new Set<object>(); // the containers that hold the one being visited
  const stack: Array<{ node: unknown; depth: number } | { leave: object }> = [{ node: body, depth: 1 }];
  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    if ("leave" in step) {
      onPath.delete(step.leave);
      continue;
    }
    const { node, depth } = step;
    if (typeof node === "bigint") return refuse("holds a BigInt");
    if (!isContainer(node)) continue;
    if (onPath.has(node)) return refuse("contains a cycle (an object inside itself)");
    if (depth > maxDepth) return refuse(`is nested more than ${maxDepth} levels deep`);
    onPath.add(node);
    stack.push({ leave: node });
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push({ node: child, depth: depth + 1 });
  }
  return [];
}
