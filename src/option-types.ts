/**
 * The client's options as a caller gives them (`AudienceClientOptions`), and the complete, frozen
 * configuration they are normalized into once (`ClientConfig`, options.ts).
 */

import type { HeadersOptions } from "openapi-fetch";
import type { Coordinator } from "./coordination/coordinator.ts";
import type { DriftReport } from "./drift/drift-watch.ts";
import type { RateState } from "./rate-state.ts";
import type { TokenStore } from "./session/token-store.ts";
import type { SessionProvider, SessionTokens } from "./session/tokens.ts";

/**
 * Receives request start/end, retries and session events. Lines never contain secrets, and the
 * message and string details never hold a control or bidi character (shown as `\uXXXX`).
 */
export interface Logger {
  /** Request start and end, sessions, limiter changes. */
  debug?(message: string, details?: Record<string, unknown>): void;
  /** Noteworthy but expected events, such as a retry. */
  info?(message: string, details?: Record<string, unknown>): void;
  /** Something a caller may want to act on, such as a 429 that lowered concurrency. */
  warn?(message: string, details?: Record<string, unknown>): void;
}

/**
 * An OpenTelemetry `Tracer` (`trace.getTracer(name)` from `@opentelemetry/api`). Declared by its
 * shape so that the package's types need no `@opentelemetry/api`; every `Tracer` fits.
 */
export interface TracerLike {
  /** `Tracer.startSpan(name, options, context)`. */
  startSpan(name: string, options?: object, context?: object): object;
}

/**
 * An OpenTelemetry `Meter` (from `@opentelemetry/api`'s `metrics.getMeter(…)`), typed by the two
 * methods the client calls so that the package's types need no `@opentelemetry/api`.
 */
export interface MeterLike {
  /** `Meter.createHistogram(name, options)`. */
  createHistogram(name: string, options?: object): object;
  /** `Meter.createCounter(name, options)`. */
  createCounter(name: string, options?: object): object;
}

/** Retry policy of every call (Section 8.2, 8.3). Only lowering the limits is allowed. */
export interface RetryOptions {
  /** Attempts in all, first included. @default 5 — more is refused (Section 8.2). */
  maxAttempts?: number;
  /** Backoff base. @default 500 (Section 8.3) */
  baseDelayMs?: number;
  /** Backoff cap. @default 30000 (Section 8.3) */
  maxDelayMs?: number;
  /** Wait after a 429 without Retry-After, drawn uniformly from [min, max]. @default [5000, 10000] (Section 8.3) */
  rateLimitDelayMs?: readonly [number, number];
  /** Longest Retry-After slept through; longer fails at once with `RateLimitError`. @default 60000 */
  maxRetryAfterMs?: number;
  /** Overall deadline per call, counted from the call, retries included: a retry that cannot finish in time is not started. */
  deadlineMs?: number;
}

/** Options of {@link createAudienceClient}. Checked once; a bad value throws a TypeError that names it. */
export interface AudienceClientOptions {
  /** Main API address, including `/api/v3`, e.g. `https://<host>/api/v3`. https unless loopback. */
  baseUrl: string;
  /** Media host. @default same origin as `baseUrl` + `/api/media` (Section 1, 9.1) */
  mediaUrl?: string;
  /** Signs in lazily, once per session (Section 5.1, 5.8). Refused in a browser unless `dangerouslyAllowBrowser`. */
  credentials?: {
    /** Sign-in user name. */
    username: string;
    /** Sign-in password; never logged, never in an error. */
    password: string;
  };
  /**
   * Start from existing tokens instead of (or before) signing in; or an async function that returns
   * `{ accessToken, idToken? }` (a page asks its backend), called on the first call, again before
   * the token's `exp` in the background, and after a 401 (session/provider.ts). A page that passes
   * only an access token also passes `partnerId`: an access token names no partner.
   */
  session?: SessionTokens | SessionProvider;
  /** Keeps the session across processes: read at start, written after sign-in and refresh. */
  tokenStore?: TokenStore;
  /** `X-Preferred-Partner-Id`. @default the single partner id in the IdToken's groups claim */
  partnerId?: string;
  /** Extra patterns a groups entry may match to count as a partner id (the prefixed-digits form, Section 2). */
  partnerIdPatterns?: readonly RegExp[];
  /**
   * Headers for every call (openapi-fetch's `headers` option), under a call's own `headers` and
   * `params.header`, values as openapi-fetch takes them (numbers, booleans, arrays joined with
   * ", ", `null`/`undefined` skipped). The client's `Authorization` and partner header win.
   */
  headers?: HeadersOptions;
  /** Transport: receives one Request per attempt. @default globalThis.fetch */
  fetch?: (request: Request) => Promise<Response>;
  /**
   * The class of the Requests `fetch` and middleware receive (openapi-fetch's `Request` option); a
   * call's own `Request` wins. @default globalThis.Request
   */
  Request?: typeof Request;
  /** Calls in flight at most, per partner. @default 8 (Section 8.4); more is refused. */
  maxConcurrency?: number;
  /** Retry policy (Section 8.2, 8.3). */
  retry?: RetryOptions;
  /** Per-attempt timeout in ms. @default 30000 */
  timeoutMs?: number;
  /**
   * Largest response body read, in bytes, counted after decompression; a larger one fails the call
   * with `ResponseTooLargeError` (not retried). @default 8 MiB — a page of the largest size the
   * client asks for (`maxPageLimit` 1000) is a few MB; eight calls in flight then hold at most
   * 64 MiB, which fits an edge runtime's 128 MB. At most 256 MiB.
   */
  maxResponseBytes?: number;
  /** Silent by default. */
  logger?: Logger;
  /** Fills every `{adplatform}` path parameter unless the call gives its own (the literal is not documented). */
  adPlatform?: string;
  /**
   * Largest page `limit` accepted and the default page size of the paginators. @default 100 — at
   * most 1000 (a client bound: the specification gives no page size but forbids limit=10000).
   */
  maxPageLimit?: number;
  /** Keys holding benchmark values in prediction bodies (undocumented, see assumptions). */
  benchmarkFields?: readonly string[];
  /** How long without a 429 before concurrency goes back from 4 to 8. @default 60000 */
  rateLimitQuietPeriodMs?: number;
  /** Allow a password or refresh token in a browser-like runtime. @default false */
  dangerouslyAllowBrowser?: boolean;
  /**
   * Pace calls per partner once a 429 has been seen, at a rate learned from the 429s, so that a
   * batch stops drawing 429s (each costs a 5–10 s wait, Section 8.3). No effect until half of the
   * partner's latest calls draw 429s. Turn it off when something in front of the client already
   * paces calls, or when 429s do not mean a rate (a test server refusing calls at random).
   * @default true
   */
  ratePacing?: boolean;
  /**
   * OpenTelemetry tracing: a span per call and a child span per attempt (HTTP client semantic
   * conventions), never holding a secret. @default none — nothing is traced or allocated
   */
  tracer?: TracerLike;
  /**
   * Called when the partner's concurrency cap, pace or cool-down changes, with
   * `client.rateState()`'s snapshot; at most every 250 ms, the latest state winning. A callback
   * that throws is logged and ignored. @default none — nothing is watched or allocated
   */
  onRateStateChange?: (state: RateState) => void;
  /**
   * OpenTelemetry metrics: histograms of call and attempt duration, slot wait and pacing delay;
   * counters of attempts, retries by reason, 429s, sign-ins and refreshes (HTTP client semantic
   * conventions where they exist), never holding a secret. @default none — nothing is created
   */
  meter?: MeterLike;
  /**
   * Drift reports: called, after the call has its result, with what a response of a
   * described operation shows that the description does not say (an undeclared status, another
   * media type or none — a 2xx of another media type is reported though its call fails —, a body
   * of another shape where the description shows one). Redacted, sampled (see
   * `driftSampleRate`), never throwing into a call. @default none — nothing is checked or loaded
   */
  onDrift?: (report: DriftReport) => void;
  /**
   * Share of responses `onDrift` checks after the first of each operation, status and kind of
   * media type (JSON, another, none: always checked). @default 0.01
   */
  driftSampleRate?: number;
  /**
   * Where the partner's shared state lives: its concurrency slots, pace and 429
   * cool-down, and, when the coordinator shares one, its session. Give `redisCoordinator` (the
   * `/redis` entry) to share them across every process of the partner, or `fileCoordinator` (the
   * `/node` entry) to share the session of the processes of one host.
   * @default in the process: every client of one base address and partner shares one state
   */
  coordinator?: Coordinator;
}

/** The complete, frozen configuration `normalizeOptions` makes: every default filled. */
export interface ClientConfig {
  readonly baseUrl: URL;
  readonly mediaUrl: URL;
  readonly credentials: Readonly<{ username: string; password: string }> | undefined;
  readonly session: Readonly<SessionTokens> | undefined;
  /** The `session` option when it is a function. */
  readonly sessionProvider: SessionProvider | undefined;
  readonly tokenStore: TokenStore | undefined;
  readonly partnerId: string | undefined;
  readonly partnerIdPatterns: readonly RegExp[];
  /** The `fetch` option; undefined: the runtime's fetch, looked up at call time (transport/send-attempt.ts). */
  readonly headers: HeadersOptions | undefined;
  readonly fetch: ((request: Request) => Promise<Response>) | undefined;
  readonly Request: typeof Request | undefined;
  readonly maxConcurrency: number;
  readonly retry: Readonly<Required<Omit<RetryOptions, "deadlineMs">> & { deadlineMs: number | undefined }>;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly logger: Logger;
  readonly adPlatform: string | undefined;
  readonly maxPageLimit: number;
  readonly benchmarkFields: readonly string[];
  readonly rateLimitQuietPeriodMs: number;
  readonly ratePacing: boolean;
  readonly dangerouslyAllowBrowser: boolean;
  readonly tracer: TracerLike | undefined;
  readonly onRateStateChange: ((state: RateState) => void) | undefined;
  readonly meter: MeterLike | undefined;
  readonly onDrift: ((report: DriftReport) => void) | undefined;
  readonly driftSampleRate: number;
  readonly coordinator: Coordinator | undefined;
}
