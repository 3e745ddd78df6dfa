/**
 * The session provider: `session` given as an async function, the application's way to get an
 * access token when the client needs one (a page asks its backend: it may hold neither a password
 * nor a refresh token, Section 5.4). The session asks it where it would sign in or refresh
 * (renewal.ts), so the token windows decide when: on the first call, in the background before
 * `exp`, after a 401 to the current token; single flight like any renewal.
 *
 * What it returns is checked like the `session` option (header text; a refresh token refused in a
 * browser). A provider that rejects, hangs past the attempt timeout (`timeoutMs`: the provider is
 * usually one HTTP call to the application's backend, an attempt like any other) or returns
 * something unusable fails the waiting calls with a SessionError naming it, its error as `cause`;
 * it is then asked again only by a later call, and at most once a second: never in a loop.
 */
import { SessionError } from "../errors/session-error.ts";
import { withTimeout } from "../internal/with-timeout.ts";
import { normalizeSessionTokens } from "../options/auth.ts";
import type { SessionProvider, SessionTokens } from "./tokens.ts";

/** A failed provider is asked again by a later call at most this often (no loop against a failing backend). */
const RETRY_AFTER_FAILURE_MS = 1_000;

export interface ProviderDeps {
  readonly provider: SessionProvider;
  readonly timeoutMs: number;
  readonly allowBrowser: boolean;
  /** Monotonic clock. */
  readonly monotonic: () => number;
}

export class ProvidedTokens {
  readonly #deps: ProviderDeps;
  #failure: { readonly at: number; readonly error: SessionError } | undefined;
  /** How many times the provider was asked (diagnostics, tests). */
  asked = 0;

  constructor(deps: ProviderDeps) {
    this.#deps = deps;
  }

  /** New tokens from the provider, checked; throws a SessionError naming the provider when it fails. */
  async tokens(): Promise<SessionTokens> {
    const { provider, timeoutMs, allowBrowser, monotonic } = this.#deps;
    const failure = this.#failure;
    if (failure && monotonic() - failure.at < RETRY_AFTER_FAILURE_MS) {
      const { message, cause } = failure.error;
      throw new SessionError(`Not sent: the session provider failed less than 1 s ago. ${message}`, {
        cause,
        expected: "a session",
      });
    }
    this.asked += 1;
    try {
      const value = await withTimeout(() => provider(), timeoutMs, "the session provider");
      const tokens = normalizeSessionTokens(value, allowBrowser);
      this.#failure = undefined;
      return { ...tokens };
    } catch (cause) {
      const error = new SessionError(`The session provider (the \`session\` option's function) ${why(cause)}`, {
        cause,
        expected: "a session",
      });
      this.#failure = { at: monotonic(), error };
      throw error;
    }
  }
}

/** What went wrong, without quoting what the provider returned or threw (it may hold a token). */
function why(cause: unknown): string {
  // The option checks name the field and the rule, never the value.
  if (cause instanceof TypeError && cause.message.startsWith("createAudienceClient: option"))
    return `returned an unusable session: ${cause.message.replace("createAudienceClient: option ", "")}`;
  const name = cause instanceof Error ? cause.name : typeof cause;
  return `failed (${name}; see cause); it is asked again by a later call, at most once a second`;
}
