/**
 * Where the session is kept beyond this object: the `tokenStore` option and, with a coordinator
 * that shares it, the group's session (shared-session.ts, loaded on first use).
 *
 * The token store is a cache, never a single point of failure (Section 5.8): a `get` that throws,
 * hangs past `timeoutMs` or returns something unusable is reported through the logger and treated
 * as absent; `set` runs in the background, in order, and its failure is reported, not thrown into
 * a call.
 */
import type { SessionShare } from "../coordination/coordinator.ts";
import type { withTimeout } from "../internal/with-timeout.ts";
import type { Logger } from "../options.ts";
import type { SharedSession, ShareHost } from "./shared-session.ts";
import type { storedSessionIssue, TokenStore } from "./token-store.ts";
import type { SessionTokens } from "./tokens.ts";

export interface CacheDeps {
  readonly store: TokenStore | undefined;
  /** How long a store's `get` or `set` may take. */
  readonly timeoutMs: number;
  /** The caller's logger, redacted and unable to throw. */
  readonly logger: Logger;
  readonly share: SessionShare | undefined;
  /**
   * Handed in by lazy-cache.ts, not imported: this module is a chunk of its own, and importing a
   * module the up-front code or the engine has would make esbuild split that code into more chunks.
   */
  readonly withTimeout: typeof withTimeout;
  readonly storedSessionIssue: typeof storedSessionIssue;
}

export class SessionCache {
  readonly #deps: CacheDeps;
  #storeWrites: Promise<void> = Promise.resolve();
  /** The shared part, once loaded (only with a coordinator that shares the session). */
  #sharing: Promise<SharedSession | undefined> | undefined;
  #shared: SharedSession | undefined;

  constructor(deps: CacheDeps) {
    this.#deps = deps;
  }

  /** The stored session, or undefined when there is none or the store failed (reported). */
  async read(): Promise<SessionTokens | undefined> {
    const store = this.#deps.store;
    if (!store) return undefined;
    let value: unknown;
    try {
      value = await this.#deps.withTimeout(() => store.get(), this.#deps.timeoutMs, "tokenStore.get()");
    } catch (error) {
      this.warn("tokenStore.get() failed; signing in instead", error);
      return undefined;
    }
    if (value === undefined || value === null) return undefined;
    const problem = this.#deps.storedSessionIssue(value);
    if (problem) {
      this.warn(`tokenStore.get() returned an unusable session (${problem}); signing in instead`);
      return undefined;
    }
    const v = value as SessionTokens;
    return {
      accessToken: v.accessToken,
      ...(v.refreshToken ? { refreshToken: v.refreshToken } : {}),
      ...(v.idToken ? { idToken: v.idToken } : {}),
    };
  }

  /** Keeps tokens a sign-in or refresh produced: in the group's record now, in the store in the background. */
  write(tokens: SessionTokens): void {
    this.#shared?.write({ tokens: { ...tokens } });
    const store = this.#deps.store;
    if (!store) return;
    // In the background and in order: a slow or failing store never holds or fails a call.
    this.#storeWrites = this.#storeWrites.then(() =>
      this.#deps
        .withTimeout(() => store.set({ ...tokens }), this.#deps.timeoutMs, "tokenStore.set()")
        .catch((error: unknown) => this.warn("tokenStore.set() failed; the session is kept in memory only", error)),
    );
  }

  /** Tells the group of a cool-down this process started (under the lock only). */
  shareCoolDown(ms: number): void {
    this.#shared?.write({ coolDownMs: ms });
  }

  /**
   * The shared part (session/shared-session.ts), loaded on first use; undefined without a share, or
   * (reported) when its module cannot load: the session then works alone, and the next need tries again.
   */
  shared(host: Omit<ShareHost, "warn">): Promise<SharedSession | undefined> | undefined {
    const share = this.#deps.share;
    if (!share) return undefined;
    this.#sharing ??= import("./shared-session.ts").then(
      (m) => {
        this.#shared = new m.SharedSession(share, { ...host, warn: (message, error) => this.warn(message, error) });
        return this.#shared;
      },
      (error: unknown) => {
        this.#sharing = undefined;
        this.warn("the shared session could not be loaded; this process signs in and renews on its own", error);
        return undefined;
      },
    );
    return this.#sharing;
  }

  /** Reports a store or share failure by its kind only: its message may quote a token. */
  warn(message: string, error?: unknown): void {
    const kind = error instanceof Error ? error.name : error === undefined ? undefined : typeof error;
    this.#deps.logger.warn?.(message, kind ? { error: kind } : undefined);
  }
}
