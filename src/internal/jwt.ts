/** Decodes a JWT's payload without verifying it: the client only reads `exp` and `groups`. */
export function decodeJwtPayload(token: string): Record<string, unknown> | undefined {
  const part = token.split(".")[1];
  if (!part) return undefined;
  try {
    const base64 = part
      .replace(/-/g, "+")
      .replace(/_/g, "/")
      .padEnd(Math.ceil(part.length / 4) * 4, "=");
    const binary = atob(base64);
    const payload: unknown = JSON.parse(NON_ASCII.test(binary) ? utf8(binary) : binary);
    return typeof payload === "object" && payload !== null ? (payload as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Expiry of a JWT in epoch milliseconds, when it has a numeric `exp`. */
export function jwtExpiryMs(token: string): number | undefined {
  const exp = decodeJwtPayload(token)?.exp;
  return typeof exp === "number" && Number.isFinite(exp) ? exp * 1000 : undefined;
}

/** Most payloads are ASCII, whose bytes are already their text: no copy and no decoder (a hostile
 * 4 MB IdToken is decoded twice per sign-in, once for its groups and once for its expiry). */
const NON_ASCII = /[\x80-\xff]/;

function utf8(binary: string): string {
  // A plain loop: Uint8Array.from with a callback costs a call per byte (seconds for a 4 MB
  // claim in a hostile sign-in body).
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new TextDecoder().decode(bytes);
}
