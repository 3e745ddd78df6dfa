/**
 * A call's init as the prepare step reads it: once. Every later step (the checks, the request
 * schemas, the setup guards, openapi-fetch) reads this copy, so what is checked is what is sent: a
 * getter or Proxy that answered `e1` to the checks and `..` to openapi-fetch took a call out of the
 * API's path (`GET /api/v3/`), a page limit turned over the cap after its check, and a header value
 * turned into CR LF ended in a raw TypeError. Copied: the init's own enumerable fields, and one
 * level of `params.path`, `params.query`, `params.header` and `headers` when they are plain
 * objects (anything else is left for the checks to refuse), a path value given as a number as its
 * text. A body is the caller's object, read again by JSON.stringify: the request schemas
 * check it as it is when the call is made.
 */

import { isPlainObject as isPlain } from "../internal/is-record.ts";

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
  return copy;
}
