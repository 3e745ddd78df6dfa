/**
 * How the client authenticates (Section 5): `credentials`, `session`, `tokenStore` (one of them
 * is required), and the partner (`partnerId`, `partnerIdPatterns`).
 */

import { PARTNER_ID_PATTERN } from "../assumptions.ts";
import { headerValueIssue } from "../guards/header-value.ts";
import { hasControlCharacter } from "../guards/path-params.ts";
import { isBrowserLike } from "../internal/runtime.ts";
import type { AudienceClientOptions, ClientConfig } from "../option-types.ts";
import type { SessionTokens } from "../session/tokens.ts";
import { fail, isObject, method, object, token } from "./checks.ts";
import { refusedByThisBuild } from "./server-only.ts";

type AuthConfig = Pick<
  ClientConfig,
  "credentials" | "session" | "sessionProvider" | "tokenStore" | "partnerId" | "partnerIdPatterns"
>;

/** @param allowBrowser `dangerouslyAllowBrowser`: skip the server-side-only rule */
export function authOptions(options: AudienceClientOptions, allowBrowser: boolean): AuthConfig {
  const credentials =
    options.credentials === undefined ? undefined : normalizeCredentials(options.credentials, allowBrowser);
  const sessionProvider = typeof options.session === "function" ? options.session : undefined;
  const session =
    options.session === undefined || sessionProvider
      ? undefined
      : normalizeSessionTokens(options.session, allowBrowser);
  if (!credentials && !session && !sessionProvider && !options.tokenStore)
    fail("credentials", "or session or tokenStore is required to authenticate");
  const tokenStore = options.tokenStore;
  if (tokenStore !== undefined && (!isObject(tokenStore) || !method(tokenStore, "get") || !method(tokenStore, "set"))) {
    fail("tokenStore", "must have get() and set() functions");
  }
  const partnerId = options.partnerId === undefined ? undefined : checkPartnerId(options.partnerId);
  const patterns = options.partnerIdPatterns ?? [];
  if (!Array.isArray(patterns) || !patterns.every((p) => p instanceof RegExp))
    fail("partnerIdPatterns", "must be an array of RegExp");
  return {
    credentials,
    session,
    sessionProvider,
    tokenStore,
    partnerId,
    // Copies without `g`/`y`: their lastIndex would carry from one test to the next.
    partnerIdPatterns: Object.freeze([PARTNER_ID_PATTERN, ...patterns.map(statelessCopy)]),
  };
}

/** The pattern, as a new RegExp without the stateful flags `g` and `y`. */
const statelessCopy = (p: RegExp): RegExp => new RegExp(p.source, p.flags.replace("g", "").replace("y", ""));

/** Section 5.5: the partner id goes into a header; it must be header text, one token. */
function checkPartnerId(value: unknown): string {
  if (typeof value !== "string" || !value || hasControlCharacter(value) || /\s/.test(value)) {
    return fail("partnerId", "must be a non-empty partner id without whitespace or control characters");
  }
  const issue = headerValueIssue(value);
  if (issue) fail("partnerId", `must be header text: it ${issue}`);
  return value;
}

function serverSideOnly(): void {
  if (isBrowserLike())
    fail(
      "credentials",
      "(a password or refresh token) is server-side only (Section 5.4); pass dangerouslyAllowBrowser: true to allow it in a browser",
    );
}

/**
 * The `credentials` option (or `client.useCredentials()`'s argument), checked and frozen.
 * @param allowBrowser `dangerouslyAllowBrowser`: skip the server-side-only rule
 */
export function normalizeCredentials(value: unknown, allowBrowser: boolean): ClientConfig["credentials"] & object {
  const { username, password } = object("credentials", value, "{ username, password }");
  if (typeof username !== "string" || !username.trim()) fail("credentials.username", "must be a non-empty string");
  if (typeof password !== "string" || !password) fail("credentials.password", "must be a non-empty string");
  if (!allowBrowser) serverSideOnly();
  refusedByThisBuild("credentials");
  return Object.freeze({ username: username as string, password: password as string });
}

/** The `session` option (or `client.useSession()`'s argument), checked and frozen. */
export function normalizeSessionTokens(value: unknown, allowBrowser: boolean): Readonly<SessionTokens> {
  const s = object("session", value, "{ accessToken, refreshToken?, idToken? }");
  const refreshToken = token("session.refreshToken", s.refreshToken, false);
  const idToken = token("session.idToken", s.idToken, false);
  if (!allowBrowser && refreshToken) serverSideOnly();
  if (refreshToken) refusedByThisBuild("session.refreshToken");
  return Object.freeze({
    accessToken: token("session.accessToken", s.accessToken, true) as string,
    ...(refreshToken ? { refreshToken } : {}),
    ...(idToken ? { idToken } : {}),
  });
}
