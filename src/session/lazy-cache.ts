/**
 * The session cache (session-cache.ts: the `tokenStore` option and a coordinator's shared session)
 * behind a dynamic import: only a client given a token store or a coordinator that shares the
 * session loads it, when the client is created, so what every other app loads for its first calls
 * leaves it out. Without either, the cache holds nothing and keeps nothing, as session-cache.ts
 * does then. A module that cannot load is a store that failed (Section 5.8: a cache, never a
 * single point of failure): reported, and the session signs in instead.
 */
import { withTimeout } from "../internal/with-timeout.ts";
import type { CacheDeps, SessionCache } from "./session-cache.ts";
import type { SharedSession } from "./shared-session.ts";
import { storedSessionIssue } from "./token-store.ts";

/** What the session asks of its cache (session-cache.ts). */
export type Cache = Pick<SessionCache, "read" | "write" | "shareCoolDown" | "shared">;

const NO_CACHE: Cache = {
  read: () => Promise.resolve(undefined),
  write: () => undefined,
  shareCoolDown: () => undefined,
  shared: () => undefined,
};

export function sessionCache(given: Omit<CacheDeps, "withTimeout" | "storedSessionIssue">): Cache {
  const deps: CacheDeps = { ...given, withTimeout, storedSessionIssue };
  if (!deps.store && !deps.share) return NO_CACHE;
  let cache: SessionCache | undefined;
  const loading = import("./session-cache.ts").then((m) => {
    cache = new m.SessionCache(deps);
    return cache;
  });
  const warn = (message: string, error: unknown): void =>
    deps.logger.warn?.(message, { error: error instanceof Error ? error.name : typeof error });
  // Not left unhandled: each use below handles the failure its own way.
  loading.catch(() => undefined);
  return {
    read: () =>
      loading.then(
        (c) => c.read(),
        (error: unknown) => {
          warn("the token store could not be loaded; signing in instead", error);
          return undefined;
        },
      ),
    // Kept in order: writes asked before the module loaded run once it has, in their order.
    write: (tokens) =>
      cache
        ? cache.write(tokens)
        : void loading.then(
            (c) => c.write(tokens),
            (error: unknown) => warn("the token store could not be loaded; the session is kept in memory only", error),
          ),
    // Before the module has loaded there is no shared session to tell (as in session-cache.ts).
    shareCoolDown: (ms) => cache?.shareCoolDown(ms),
    shared: (host) => (deps.share ? loading.then((c) => c.shared(host) as Promise<SharedSession>) : undefined),
  };
}
