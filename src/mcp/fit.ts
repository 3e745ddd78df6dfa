/**
 * A tool result fits an agent's context: a value whose JSON is over the limit is cut — every array
 * to its first items and every long string to its beginning, both bounds halved until it fits — and
 * the caller adds a note on how to narrow the request. Only the shape the schemas promise is kept
 * (objects keep their keys), so a cut result still matches the tool's output schema.
 */

/** What {@link fitWithin} returns: the value, cut or not, and its size before. */
export interface Fitted<T> {
  readonly value: T;
  /** Whether anything was cut. */
  readonly cut: boolean;
  /** Bytes of the value's JSON before cutting (UTF-8). */
  readonly bytes: number;
}

const encoder = new TextEncoder();
const sizeOf = (value: unknown): number => encoder.encode(JSON.stringify(value) ?? "").length;

/** `value`, cut so that its JSON takes at most `maxBytes` bytes (UTF-8). */
export function fitWithin<T>(value: T, maxBytes: number): Fitted<T> {
  const bytes = sizeOf(value);
  if (bytes <= maxBytes) return { value, cut: false, bytes };
  let { items, chars } = extent(value);
  for (;;) {
    items = Math.floor(items / 2);
    chars = Math.max(16, Math.floor(chars / 2));
    const candidate = capped(value, items, chars) as T;
    if (sizeOf(candidate) <= maxBytes || (items === 0 && chars === 16)) return { value: candidate, cut: true, bytes };
  }
}

/** The longest array (or key list, below the top level) and the longest string in `value`. */
function extent(value: unknown): { items: number; chars: number } {
  let items = 0;
  let chars = 16;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node === "string") chars = Math.max(chars, node.length);
    else if (node && typeof node === "object") {
      const children = Array.isArray(node) ? node : Object.values(node);
      if (node !== value || Array.isArray(node)) items = Math.max(items, children.length);
      for (const child of children) stack.push(child);
    }
  }
  return { items, chars };
}

/**
 * A copy with arrays (and the keys of objects below the top level, whose keys the output schemas
 * name) cut to `items`, and strings to `chars` followed by "…".
 */
function capped(value: unknown, items: number, chars: number, top = true): unknown {
  if (typeof value === "string") return value.length > chars ? `${value.slice(0, chars)}…` : value;
  if (Array.isArray(value)) return value.slice(0, items).map((v) => capped(v, items, chars, false));
  if (value && typeof value === "object") {
    const entries = Object.entries(value);
    return Object.fromEntries(
      (top ? entries : entries.slice(0, items)).map(([k, v]) => [k, capped(v, items, chars, false)]),
    );
  }
  return value;
}
