/**
 * Section 1.2: array query parameters repeat their key (`city=a&city=b`), never brackets or commas.
 * Section 1.3 / overlay: free-form parameter objects are sent as plain `key=value` pairs (form,
 * explode), not openapi-fetch's default `deepObject` (`params[key]=value`).
 */

import { keyField } from "./key-field.ts";

function pairs(key: string, value: unknown, out: string[]): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    for (const v of value) pairs(key, v, out);
    return;
  }
  if (typeof value === "object") {
    throw new TypeError(`query parameter "${key}": nested objects cannot be sent as query-string pairs`);
  }
  out.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
}

/**
 * Each parameter a query is sent as, with the field of an issue about it (`query.limit`, or
 * `query.params.limit` inside a parameter object; internal/key-field.ts). The checks that read a
 * parameter by its name read it here (guards/request-rules.ts): a `limit` or `eid` inside a
 * parameter object is sent as one too.
 */
export function forEachSentParam(
  query: Readonly<Record<string, unknown>>,
  visit: (key: string, value: unknown, field: string) => void,
): void {
  for (const [name, value] of Object.entries(query)) {
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      for (const [key, inner] of Object.entries(value)) visit(key, inner, keyField("query", name, key));
    } else {
      visit(name, value, keyField("query", name));
    }
  }
}

export function serializeQuery(query: Readonly<Record<string, unknown>>): string {
  const out: string[] = [];
  forEachSentParam(query, (key, value) => pairs(key, value, out));
  return out.join("&");
}
