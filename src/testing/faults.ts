/**
 * What a scenario does to the mock, as plain data and small functions the front consults:
 * answers put before the real one (429, 5xx, 403), a write whose answer is lost, token lifetimes,
 * a refused refresh, a clock offset, a delay, a drifted answer. `healthy` is {@link NO_FAULTS}.
 */
import type { Answer } from "./answer.ts";

/** A request as the scenarios see it. */
export interface FaultRequest {
  readonly method: string;
  readonly path: string;
  readonly partner: string | undefined;
  readonly bearer: boolean;
}

export interface Faults {
  /** An answer given instead of the real one, or undefined. */
  instead(request: FaultRequest): Answer | undefined;
  /** Whether this committed write loses its answer (the connection is closed). */
  dropAnswer(request: FaultRequest): boolean;
  /** Changes the real answer (drift). */
  alter(request: FaultRequest, answer: Answer): Answer;
  /** How long a minted access token is accepted (Section 5.2, 8.6: about an hour). */
  readonly tokenLifetimeMs: number;
  /** Whether POST /auth/refresh_token answers 400 (Section 7). */
  readonly refreshRefused: boolean;
  /** The server clock's offset from this process's. */
  readonly skewMs: number;
  /** How long each answer is held back. */
  readonly delayMs: number;
  /** After how many successful draft edits someone else publishes the setup (undefined: never). */
  readonly publishAfterEdits: number | undefined;
}

export const NO_FAULTS: Faults = Object.freeze({
  instead: () => undefined,
  dropAnswer: () => false,
  alter: (_request: FaultRequest, answer: Answer) => answer,
  // Section 5.2 says an access token lives "about 1 hour"; the mock's tokens live exactly that.
  tokenLifetimeMs: 3_600_000,
  refreshRefused: false,
  skewMs: 0,
  delayMs: 0,
  publishAfterEdits: undefined,
});

/** Sign-in, refresh and health need no token and no partner (Section 5.6). */
export const isOpenPath = (path: string): boolean =>
  path === "/auth" || path === "/auth/refresh_token" || path === "/status/";

/** The writes Section 3 rule 3 calls not idempotent. */
export const isNonIdempotentWrite = (method: string, path: string): boolean =>
  method === "POST" && (path === "/campaigns/" || /^\/setup_processes\/[^/]+$/.test(path));
