import { headerValueIssue } from "../guards/header-value.ts";

/** A session as a token store keeps it. Treat every field as a secret. */
export interface StoredSession {
  /** The bearer token (about 1 hour, Section 5.2). */
  accessToken: string;
  /** Mints new access tokens (Section 5.4); server-side only. */
  refreshToken?: string;
  /** Carries the groups claim the partner id is chosen from (Section 5.3). */
  idToken?: string;
}

/**
 * Keeps the session across processes (Section 5.8: do not sign in on every request). `get` is read
 * once, before the first authenticated call; `set` is called after every sign-in and refresh.
 */
export interface TokenStore {
  /** The stored session, or undefined when there is none yet. */
  get(): StoredSession | undefined | Promise<StoredSession | undefined>;
  /** Stores the session after a sign-in or refresh (replace, do not merge). */
  set(session: StoredSession): void | Promise<void>;
}

/** A token store in memory, for one process. */
export function memoryTokenStore(initial?: StoredSession): TokenStore {
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
