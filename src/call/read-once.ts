/**
 * A call's init as the prepare step reads it: once. Every later step (the checks, the request
 * schemas, the setup guards, openapi-fetch) reads this copy, so what is checked is what is sent: a
 * getter or Proxy that answered `e1` to the checks and `..` to openapi-fetch took a call out of the
 * API's path (`GET /api/v3/`), a page limit turned over the cap after its check, and a header value
 * turned into CR LF ended in a raw TypeError. Copied: the init's own enumerable fields, and one
 * level of `params.path`, `params.query`, `params.header` and `headers` when they are plain
 * objects (anything else is left for the checks to refuse), a path value given as a number as its
 * text, and a body's arrays and plain objects at every level (a value that answered `1000` to the
 * request schema went out as `"lots"`, a count checked finite went out as `null`).
 */

import { isContainer } from "../guards/json-body.ts";
import { isPlainObject as isPlain } from "../internal/is-record.ts";
import { CLIENT_DEFAULTS } from "../limits.ts";

/**
 * The own enumerable fields, each read once. A spread: it copies an object literal's shape as it is
 * (a queued call holds the copy, and memory per queued call is a target, BENCHMARKS.md: a copy
 * built key by key took more), and a JSON-parsed `__proto__` stays a field.
 */
const fieldsOf = (value: Record<string, unknown>): Record<string, unknown> => ({ ...value });

const PARAM_PARTS = ["path", "query", "header"] as const;

/**
 * A path value given as a finite number becomes the text openapi-fetch sends (`123`, `"123"`):
 * what the client remembers of an id (the setup guards, the status PUTs sent, Section 3, 8.5) holds
 * both forms as one. Anything else is left for the checks (guards/path-params.ts).
 */
function asSent(path: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(path)) {
    const value = path[key];
    if (typeof value === "number" && Number.isFinite(value)) path[key] = String(value);
  }
  return path;
}

type Copy = Record<string, unknown>;

/**
 * A body's arrays and plain objects, copied with each value read once; anything else (a Date, a
 * Blob, a class's instance) is kept as it is, for JSON.stringify or the body serializer to read.
 * An explicit stack: a body nested thousands deep overflows no recursion here. Past `maxDepth`
 * the caller's object is kept, and guards/json-body.ts refuses the body for its depth. A container
 * met twice (a cycle, a shared branch) is copied once, so a cycle is still one to that check.
 */
function copyContainers(body: object, maxDepth: number): Copy {
  const copies = new Map<object, Copy>();
  const copyOf = (node: object): Copy | undefined => {
    // An array with holes is kept as given, and refused for them: Object.values reads its elements
    // only, where a copy would walk its whole length (a sparse array of length 10^8 took 2 s).
    if (Array.isArray(node) && Object.values(node).length < node.length) return undefined;
    // Array.prototype.slice, not the array's own: it reads the length and each index once.
    const copy = (Array.isArray(node) ? Array.prototype.slice.call(node) : { ...node }) as Copy;
    copies.set(node, copy);
    return copy;
  };
  const root = copyOf(body);
  if (!root) return body as Copy;
  const stack: Array<[Copy, number]> = [[root, 1]];
  for (let step = stack.pop(); step; step = stack.pop()) {
    const [copy, depth] = step;
    if (depth >= maxDepth) continue;
    for (const key of Object.keys(copy)) {
      const child = copy[key];
      if (!isContainer(child)) continue;
      const seen = copies.get(child);
      const made = seen ?? copyOf(child);
      if (made) copy[key] = made;
      if (made && !seen) stack.push([made, depth + 1]);
    }
  }
  return root;
}

/** The init every step of the call reads (see above). */
export function readOnce(init: Record<string, unknown>): Record<string, unknown> {
  const copy = fieldsOf(init);
  const { params, headers } = copy;
  if (isPlain(params)) {
    const parts = fieldsOf(params);
    for (const part of PARAM_PARTS) {
      const value = parts[part];
      if (isPlain(value)) parts[part] = part === "path" ? asSent(fieldsOf(value)) : fieldsOf(value);
    }
    copy.params = parts;
  }
  if (isPlain(headers)) copy.headers = fieldsOf(headers);
  if (isContainer(copy.body)) copy.body = copyContainers(copy.body, CLIENT_DEFAULTS.maxJsonBodyDepth);
  return copy;
}
