/**
 * What keeps secrets out of everything the MCP server says (results, errors, elicitation messages,
 * log lines): the server makes its one client itself, so it knows the password and sees every
 * session the client stores (its `tokenStore`, wrapped here), and masks each of them in every form
 * it can take in text (the client's own redactor, internal/redact.ts: JSON-escaped,
 * percent-encoded, base64 at any alignment, …). Any JWT-shaped text is masked too, whoever minted
 * it: a token the server never saw (a coordinator's shared session) is still a bearer.
 */
import type { AudienceClientOptions, SessionTokens, TokenStore } from "../index.ts";
import { Redactor } from "../internal/redact.ts";

// A token refreshed away stays a valid bearer until its expiry (about an hour, Section 5.2, 8.6):
// masked for two.
const RETAIN_MS = 2 * 60 * 60 * 1000;
/** Three base64url segments, the first a JSON header (`{"` is `eyJ`): a JWT, signed or not. */
const JWT = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;
const HAS_JWT = new RegExp(JWT.source);

/** Masks the secrets of one client. */
export interface Secrets {
  /** `text` with every secret masked. */
  text(text: string): string;
  /** A copy of a JSON-like value with every secret masked. */
  value<T>(value: T): T;
}

/** The client's options with a token store that tells `secrets`, and the masker. */
export function withSecretsKnown(options: AudienceClientOptions): { options: AudienceClientOptions; secrets: Secrets } {
  const redactor = new Redactor({ retainMs: RETAIN_MS });
  const { credentials, session } = options;
  if (credentials) redactor.set("password", credentials.password, `${credentials.username}:${credentials.password}`);
  const learn = (tokens: SessionTokens | undefined): void => {
    if (!tokens) return;
    redactor.set("access", tokens.accessToken);
    redactor.set("refresh", tokens.refreshToken);
    redactor.set("id", tokens.idToken);
  };
  // A session provider's tokens are learned as it hands them over (they may never reach the store).
  const provided: AudienceClientOptions["session"] =
    typeof session === "function"
      ? async () => {
          const tokens = await session();
          learn(tokens);
          return tokens;
        }
      : session;
  if (typeof session !== "function") learn(session);
  const inner: TokenStore | undefined = options.tokenStore;
  let held: SessionTokens | undefined;
  const tokenStore: TokenStore = {
    get: async () => {
      const tokens = inner ? await inner.get() : held;
      learn(tokens);
      return tokens;
    },
    set: async (tokens) => {
      learn(tokens);
      if (inner) await inner.set(tokens);
      else held = { ...tokens };
    },
  };
  const text = (input: string): string => redactor.text(input).replace(JWT, "[REDACTED]");
  const secrets: Secrets = {
    text,
    value: <T>(value: T): T => {
      const masked = redactor.value(value);
      if (typeof masked === "string") return text(masked) as T;
      if (typeof masked !== "object" || masked === null) return masked;
      const json = JSON.stringify(masked);
      return HAS_JWT.test(json) ? (JSON.parse(json.replace(JWT, "[REDACTED]")) as T) : masked;
    },
  };
  return { options: { ...options, ...(provided === undefined ? {} : { session: provided }), tokenStore }, secrets };
}
