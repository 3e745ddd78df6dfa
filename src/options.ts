/**
 * Turns the caller's options into one complete, frozen configuration: defaults filled, bad values
 * refused with a TypeError that names the option. Nothing downstream re-checks or re-defaults.
 */

import type { HeadersOptions } from "openapi-fetch";
import { DEFAULT_BENCHMARK_FIELDS, PARTNER_ID_PATTERN } from "./assumptions.ts";
import type { Coordinator } from "./coordination/coordinator.ts";
import type { DriftReport } from "./drift/drift-watch.ts";
import { headerValueIssue } from "./guards/header-value.ts";
import { hasControlCharacter, idIssues, MAX_ID_LENGTH } from "./guards/path-params.ts";
import { headerIssues } from "./guards/request-values.ts";
import { isBrowserLike, isLoopbackHost } from "./internal/runtime.ts";
import { MAX_TIMER_MS } from "./internal/timers.ts";
import { CLIENT_DEFAULTS, SPEC } from "./limits.ts";
import type { RateState } from "./rate-state.ts";
import type { TokenStore } from "./session/token-store.ts";
import type { SessionTokens } from "./session/tokens.ts";

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
  /** Overall deadline per call, retries included: a retry that cannot finish in time is not started. */
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
  /** Start from existing tokens instead of (or before) signing in. */
  session?: SessionTokens;
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

const fail = (option: string, problem: string): never => {
  throw new TypeError(`createAudienceClient: option "${option}" ${problem}`);
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

/**
 * The caller's own properties of `value`, without a prototype: an option is never read through
 * the prototype chain, so a polluted `Object.prototype.mediaUrl` or `.partnerId` changes nothing.
 */
const own = (value: object): Record<string, unknown> => Object.assign(Object.create(null), value);

/** `value`'s own properties if it is an object; otherwise refused as not being `shape`. */
const object = (option: string, value: unknown, shape: string): Record<string, unknown> =>
  isObject(value) ? own(value) : fail(option, `must be ${shape}`);

/**
 * A method of a caller's object (a logger, a token store): its own, or its class's, never one
 * inherited from `Object.prototype` (where only pollution would put it).
 */
function method(target: object, name: string): ((...args: never[]) => unknown) | undefined {
  const fn = (target as Record<string, unknown>)[name];
  if (typeof fn !== "function" || fn === (Object.prototype as Record<string, unknown>)[name]) return undefined;
  return fn as (...args: never[]) => unknown;
}

function url(option: string, value: unknown): URL {
  if (typeof value !== "string" || !value.trim()) return fail(option, "must be a non-empty URL string");
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return fail(option, "is not a valid absolute URL");
  }
  if (parsed.protocol !== "https:" && !(parsed.protocol === "http:" && isLoopbackHost(parsed.hostname))) {
    fail(option, "must use https (plain http is accepted only for loopback addresses)");
  }
  if (parsed.search || parsed.hash || parsed.username || parsed.password)
    fail(option, "must not carry a query, fragment or user info");
  // A loop, not /\/+$/: that pattern retries from every slash of a long run (quadratic).
  let end = parsed.pathname.length;
  while (end > 0 && parsed.pathname[end - 1] === "/") end--;
  parsed.pathname = parsed.pathname.slice(0, end);
  return parsed;
}

function positiveInt(option: string, value: unknown, fallback: number, max = MAX_TIMER_MS): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1)
    return fail(option, "must be a positive integer");
  if (value > max) fail(option, `must be at most ${max}`);
  return value;
}

/** A duration in ms: finite, ≥ 0, and a wait the runtime's timers can honour (below 2^31 ms). */
function nonNegative(option: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
    return fail(option, "must be a finite number ≥ 0");
  if (value > MAX_TIMER_MS) fail(option, `must be at most ${MAX_TIMER_MS} ms (2^31 − 1: timers fire at once above it)`);
  return value;
}

/** A token becomes a header value (`Bearer <token>`): it must be header text without whitespace. */
function token(option: string, value: unknown, required: boolean): string | undefined {
  if (value === undefined && !required) return undefined;
  if (typeof value !== "string" || !value.trim() || /[\s]/.test(value) || headerValueIssue(value))
    return fail(option, "must be a non-empty string of header text (Latin-1, no whitespace or control characters)");
  return value;
}

/** Section 5.5: the partner id goes into a header; it must be header text, one token. */
function checkPartnerId(option: string, value: unknown): string {
  if (typeof value !== "string" || !value || hasControlCharacter(value) || /\s/.test(value)) {
    return fail(option, "must be a non-empty partner id without whitespace or control characters");
  }
  const issue = headerValueIssue(value);
  if (issue) fail(option, `must be header text: it ${issue}`);
  return value;
}

/** openapi-fetch's `headers` option, checked once as a call's headers are (guards/request-values.ts). */
function baseHeaders(value: unknown): HeadersOptions | undefined {
  if (value === undefined || value instanceof Headers) return value === undefined ? undefined : new Headers(value);
  if (!isObject(value) || Array.isArray(value)) return fail("headers", "must be a Headers object or a plain object");
  const [issue] = headerIssues(own(value), "headers");
  if (issue) fail(issue.field, issue.message);
  return Object.freeze(own(value)) as HeadersOptions;
}

/** The pattern, as a new RegExp without the stateful flags `g` and `y`. */
const statelessCopy = (p: RegExp): RegExp => new RegExp(p.source, p.flags.replace("g", "").replace("y", ""));

/** The `{adplatform}` path segment: header-safe text, and the rule of every identifier segment. */
function adPlatformSegment(value: unknown): string {
  if (typeof value === "string" && value.length > MAX_ID_LENGTH)
    fail("adPlatform", `must be at most ${MAX_ID_LENGTH} characters`);
  const text = token("adPlatform", value, true) as string;
  const [issue] = idIssues(text, "adPlatform");
  if (issue) fail("adPlatform", issue.message);
  return text;
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
  return Object.freeze({ username: username as string, password: password as string });
}

/** The `session` option (or `client.useSession()`'s argument), checked and frozen. */
export function normalizeSessionTokens(value: unknown, allowBrowser: boolean): Readonly<SessionTokens> {
  const s = object("session", value, "{ accessToken, refreshToken?, idToken? }");
  const refreshToken = token("session.refreshToken", s.refreshToken, false);
  const idToken = token("session.idToken", s.idToken, false);
  if (!allowBrowser && refreshToken) serverSideOnly();
  return Object.freeze({
    accessToken: token("session.accessToken", s.accessToken, true) as string,
    ...(refreshToken ? { refreshToken } : {}),
    ...(idToken ? { idToken } : {}),
  });
}

export function normalizeOptions(input: AudienceClientOptions): ClientConfig {
  if (!isObject(input)) throw new TypeError("createAudienceClient: options must be an object");
  const options = own(input) as unknown as AudienceClientOptions;
  const baseUrl = url("baseUrl", options.baseUrl);
  // Section 1, 9.1: the base address includes the version segment; without it every call goes astray.
  if (!baseUrl.pathname.endsWith(SPEC.apiVersionPath))
    fail(
      "baseUrl",
      `must end with the version segment ${SPEC.apiVersionPath}, e.g. https://<host>${SPEC.apiVersionPath}`,
    );
  const mediaUrl =
    options.mediaUrl === undefined ? new URL(`${baseUrl.origin}${SPEC.mediaPath}`) : url("mediaUrl", options.mediaUrl);

  const allowBrowser = options.dangerouslyAllowBrowser === true;
  const credentials =
    options.credentials === undefined ? undefined : normalizeCredentials(options.credentials, allowBrowser);
  const session = options.session === undefined ? undefined : normalizeSessionTokens(options.session, allowBrowser);
  if (!credentials && !session && !options.tokenStore)
    fail("credentials", "or session or tokenStore is required to authenticate");
  const tokenStore = options.tokenStore;
  if (tokenStore !== undefined && (!isObject(tokenStore) || !method(tokenStore, "get") || !method(tokenStore, "set"))) {
    fail("tokenStore", "must have get() and set() functions");
  }
  const partnerId = options.partnerId === undefined ? undefined : checkPartnerId("partnerId", options.partnerId);
  const patterns = options.partnerIdPatterns ?? [];
  if (!Array.isArray(patterns) || !patterns.every((p) => p instanceof RegExp))
    fail("partnerIdPatterns", "must be an array of RegExp");
  const fetchFn = options.fetch;
  if (typeof (fetchFn ?? globalThis.fetch) !== "function")
    fail("fetch", "must be a function (no global fetch in this runtime)");
  const RequestClass = options.Request;
  if (RequestClass !== undefined && typeof RequestClass !== "function") fail("Request", "must be a Request class");
  const retry = object("retry", options.retry ?? {}, "an object") as RetryOptions;
  const rateLimitDelayMs = retry.rateLimitDelayMs ?? [SPEC.rateLimitWaitMinMs, SPEC.rateLimitWaitMaxMs];
  if (
    !Array.isArray(rateLimitDelayMs) ||
    rateLimitDelayMs.length !== 2 ||
    !rateLimitDelayMs.every((n) => typeof n === "number" && Number.isFinite(n) && n >= 0 && n <= MAX_TIMER_MS) ||
    rateLimitDelayMs[0] > rateLimitDelayMs[1]
  ) {
    fail("retry.rateLimitDelayMs", `must be [min, max] with 0 ≤ min ≤ max ≤ ${MAX_TIMER_MS}`);
  }
  const loggerInput = options.logger ?? {};
  if (!isObject(loggerInput)) fail("logger", "must be an object with debug/info/warn functions");
  const logger: Logger = {};
  for (const level of ["debug", "info", "warn"] as const) {
    const fn = method(loggerInput, level);
    if (fn) logger[level] = fn.bind(loggerInput) as Logger[typeof level];
  }
  const adPlatform = options.adPlatform === undefined ? undefined : adPlatformSegment(options.adPlatform);
  if (options.ratePacing !== undefined && typeof options.ratePacing !== "boolean")
    fail("ratePacing", "must be true or false");
  if (options.tracer !== undefined && typeof options.tracer?.startSpan !== "function")
    fail("tracer", "must be an OpenTelemetry Tracer");
  if (
    options.meter !== undefined &&
    (typeof options.meter?.createHistogram !== "function" || typeof options.meter?.createCounter !== "function")
  )
    fail("meter", "must be an OpenTelemetry Meter");
  if (options.onDrift !== undefined && typeof options.onDrift !== "function") fail("onDrift", "must be a function");
  const driftSampleRate = options.driftSampleRate ?? CLIENT_DEFAULTS.driftSampleRate;
  if (!(typeof driftSampleRate === "number" && driftSampleRate >= 0 && driftSampleRate <= 1))
    fail("driftSampleRate", "must be a number from 0 to 1");
  const coordinator = options.coordinator;
  if (coordinator !== undefined && (!isObject(coordinator) || !method(coordinator, "partner")))
    fail("coordinator", "must be a coordinator (redisCoordinator(), fileCoordinator()): it has no partner() function");
  if (coordinator?.session !== undefined && !method(coordinator, "session"))
    fail("coordinator", "session must be a function");
  if (options.onRateStateChange !== undefined && typeof options.onRateStateChange !== "function")
    fail("onRateStateChange", "must be a function");
  const benchmarkFields = options.benchmarkFields ?? DEFAULT_BENCHMARK_FIELDS;
  if (!Array.isArray(benchmarkFields) || !benchmarkFields.every((f) => typeof f === "string" && f))
    fail("benchmarkFields", "must be an array of non-empty strings");

  return Object.freeze({
    baseUrl,
    mediaUrl,
    credentials,
    session,
    tokenStore,
    partnerId,
    // Copies without `g`/`y`: their lastIndex would carry from one test to the next.
    partnerIdPatterns: Object.freeze([PARTNER_ID_PATTERN, ...patterns.map(statelessCopy)]),
    headers: baseHeaders(options.headers),
    fetch: fetchFn,
    Request: RequestClass,
    maxConcurrency: positiveInt("maxConcurrency", options.maxConcurrency, SPEC.maxConcurrency, SPEC.maxConcurrency),
    retry: Object.freeze({
      maxAttempts: positiveInt("retry.maxAttempts", retry.maxAttempts, SPEC.maxAttempts, SPEC.maxAttempts),
      baseDelayMs: nonNegative("retry.baseDelayMs", retry.baseDelayMs, SPEC.backoffBaseMs),
      maxDelayMs: nonNegative("retry.maxDelayMs", retry.maxDelayMs, SPEC.backoffCapMs),
      rateLimitDelayMs: Object.freeze([rateLimitDelayMs[0], rateLimitDelayMs[1]] as const),
      maxRetryAfterMs: nonNegative("retry.maxRetryAfterMs", retry.maxRetryAfterMs, CLIENT_DEFAULTS.maxRetryAfterMs),
      deadlineMs: retry.deadlineMs === undefined ? undefined : nonNegative("retry.deadlineMs", retry.deadlineMs, 0),
    }),
    timeoutMs: positiveInt("timeoutMs", options.timeoutMs, CLIENT_DEFAULTS.attemptTimeoutMs),
    maxResponseBytes: positiveInt(
      "maxResponseBytes",
      options.maxResponseBytes,
      CLIENT_DEFAULTS.maxResponseBytes,
      CLIENT_DEFAULTS.maxResponseBytesCeiling,
    ),
    logger,
    adPlatform,
    maxPageLimit: positiveInt(
      "maxPageLimit",
      options.maxPageLimit,
      CLIENT_DEFAULTS.maxPageLimit,
      CLIENT_DEFAULTS.maxPageLimitCeiling,
    ),
    benchmarkFields: Object.freeze([...benchmarkFields]),
    rateLimitQuietPeriodMs: nonNegative(
      "rateLimitQuietPeriodMs",
      options.rateLimitQuietPeriodMs,
      CLIENT_DEFAULTS.rateLimitQuietPeriodMs,
    ),
    ratePacing: options.ratePacing ?? true,
    dangerouslyAllowBrowser: allowBrowser,
    tracer: options.tracer,
    onRateStateChange: options.onRateStateChange,
    meter: options.meter,
    onDrift: options.onDrift,
    driftSampleRate,
    coordinator,
  });
}
