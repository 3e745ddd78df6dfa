/**
 * What an error built from a response needs of redaction (errors/from-response.ts): masking in
 * text, in a JSON-like value and in headers. The client's {@link Redactor} (internal/redact.ts)
 * masks every secret it holds; {@link NO_SECRETS} is the same when none is held (a result that no
 * client of this package made, given to `unwrap`), without the secret-form machinery, so `unwrap`
 * stays small up front (the Redactor loads with the engine).
 */

export interface Masks {
  text(input: string): string;
  value<T>(input: T): T;
  headers(headers: Headers): Record<string, string>;
}

export const MASK = "[REDACTED]";

/** Headers shown only as masked, whatever secret they carry. */
const SECRET_HEADERS = new Set(["authorization", "cookie", "set-cookie", "proxy-authorization"]);

/** A response's headers as an object: the secret ones masked, the others through `text`. */
export function maskedHeaders(headers: Headers, text: (value: string) => string): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, key) => {
    out[key] = SECRET_HEADERS.has(key.toLowerCase())
      ? value.startsWith("Bearer ")
        ? `Bearer ${MASK}`
        : MASK
      : text(value);
  });
  return out;
}

const same = <T>(input: T): T => input;

/** The masks of a Redactor that holds no secret: what `new Redactor()` does, exactly. */
export const NO_SECRETS: Masks = {
  text: same,
  value: same,
  headers: (headers) => maskedHeaders(headers, same),
};
