/** A session as a token store keeps it. Treat every field as a secret. */
export interface StoredSession {
  accessToken: string;
  refreshToken?: string;
  idToken?: string;
}

/**
 * Keeps the session across processes (Section 5.8: do not sign in on every request). `get` is read
 * once, before the first authenticated call; `set` is called after every sign-in and refresh.
 */
export interface TokenStore {
  get(): StoredSession | undefined | Promise<StoredSession | undefined>;
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
