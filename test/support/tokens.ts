import { EVERY_ENCODING } from "./secret-forms.ts";

/**
 * Test JWTs: unsigned, with the claims the client reads (exp, groups). The signature ends with
 * EVERY_ENCODING so that each token differs in base64 and base64url (test/support/secret-forms.ts).
 */
function makeJwt(claims: Record<string, unknown>): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
  return `${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.${Buffer.from(`sig-${Math.random()}`).toString("base64url")}${EVERY_ENCODING}`;
}

const inOneHour = (): number => Math.floor(Date.now() / 1000) + 3600;

/** A fresh set of tokens; every string is unique so a secret scan can find each. */
export function makeTokens(options: { groups?: string[]; expSeconds?: number } = {}) {
  const serial = Math.random().toString(36).slice(2, 10);
  return {
    AccessToken: makeJwt({ sub: "u1", token_use: "access", exp: options.expSeconds ?? inOneHour(), n: serial }),
    IdToken: makeJwt({
      sub: "u1",
      token_use: "id",
      exp: options.expSeconds ?? inOneHour(),
      groups: options.groups ?? ["partner-id-acme", "staff"],
    }),
    RefreshToken: `refresh-${serial}-opaque${EVERY_ENCODING}secret`,
  };
}
