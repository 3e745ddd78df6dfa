import { headerValueIssue } from "../guards/header-value.ts";
import type { SessionTokens } from "./tokens.ts";

/**
 * Keeps the session across processes (Section 5.8: do not sign in on every request). `get` is read
 * once, before the first authenticated call; `set` is called after every sign-in and refresh.
 */
export interface TokenStore {
  /** The stored session, or undefined when there is none yet. */
  get(): SessionTokens | undefined | Promise<SessionTokens | undefined>;
  /** Stores the session after a sign-in or refresh (replace, do not merge). */
  set(session: SessionTokens): void | Promise<void>;
}

/** A token store in memory, for one process. */
export function memoryTokenStore(initial?: SessionTokens): TokenStore {
  let current = initial;
  return {
    get: () => current,
    set: (session) => {
      current = { ...session };
    },
  };
}

/** What makes a stored session unusable, without quoting it; undefined when it is usable. */
export function storedSessionIssue(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return "not an object";
  const v = value as Record<string, unknown>;
  if (typeof v.accessToken !== "string" || !v.accessToken) return "no accessToken string";
  if (/\s/.test(v.accessToken) || headerValueIssue(v.accessToken)) return "accessToken is not header text";
  for (const key of ["refreshToken", "idToken"]) {
    if (v[key] !== undefined && typeof v[key] !== "string") return `${key} is not a string`;
  }
  return undefined;
}
