/** Unsigned JWTs the mock mints (the client reads claims, it does not verify signatures: Section 5). */

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString("base64url");

let serial = 0;

/** A JWT with these claims; every token is unique (a serial in `jti`). */
export function mintJwt(claims: Record<string, unknown>): string {
  serial += 1;
  return `${b64({ alg: "none", typ: "JWT" })}.${b64({ ...claims, jti: `mock-${serial}` })}.bW9jay1zaWduYXR1cmU`;
}
