/**
 * Section 1.2: array query parameters repeat their key (`city=a&city=b`), never brackets or commas.
 * Section 1.3 / overlay: free-form parameter objects are sent as plain `key=value` pairs (form,
 * explode), not openapi-fetch's default `deepObject` (`params[key]=value`).
 */

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

export function serializeQuery(query: Readonly<Record<string, unknown>>): string {
  const out: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      for (const [key, inner] of Object.entries(value)) pairs(key, inner, out);
    } else {
      pairs(name, value, out);
    }
  }
  return out.join("&");
}
