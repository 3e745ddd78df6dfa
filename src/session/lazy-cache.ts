/**
 * The session cache (session-cache.ts: the `tokenStore` option and a coordinator's shared session)
 * behind a dynamic import: only a client given a token store or a coordinator that shares the
 * session loads it, when the client is created, so what every other app loads for its first calls
 * leaves it out. Without either, the cache holds nothing and keeps nothing, as session-cache.ts
 * does then. A module that cannot load is a store that failed (Section 5.8: a cache, never a
 * single point of failure): reported, the session signs in, renews and replays on its own, and a
 * later need (the next sign-in, renewal or store write) tries the load again.
 */
import { warnOf } from "../internal/observed-logger.ts";
import { withTimeout } from "../internal/with-timeout.ts";
import type { CacheDeps, SessionCache } from "./session-cache.ts";
import { storedSessionIssue } from "./token-store.ts";

/** What the session asks of its cache (session-cache.ts). */
export type Cache = Pick<SessionCache, "read" | "write" | "shareCoolDown" | "shared">;

const ALONE = "the session cache could not be loaded; signing in instead";

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
  let loading: Promise<SessionCache> | undefined;
  // Not internal/lazy-module.ts: importing it from here would split it into a chunk of its own.
  const load = (): Promise<SessionCache> =>
    (loading ??= import("./session-cache.ts").then(
      (m) => (cache ??= new m.SessionCache(deps)),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  const warn = warnOf(deps.logger);
  // Started now, so the first call rarely waits for it; a failure here is retried by that call.
  load().catch(() => undefined);
  return {
    read: () =>
      load().then(
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
        : void load().then(
            (c) => c.write(tokens),
            (error: unknown) => warn("the token store could not be loaded; the session is kept in memory only", error),
          ),
    // Before the module has loaded there is no shared session to tell (as in session-cache.ts).
    shareCoolDown: (ms) => cache?.shareCoolDown(ms),
    shared: (host) =>
      deps.share
        ? load().then(
            (c) => c.shared(host),
            (error: unknown) => {
              warn(ALONE, error);
              return undefined;
            },
          )
        : undefined,
  };
}
