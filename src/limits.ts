/**
 * Every number the client takes from the API specification, in one place, with its section.
 * Options may lower or (where the specification allows) change them; nothing else hard-codes them.
 */
export const SPEC = Object.freeze({
  /** Section 8.2: "no more than 5 attempts recommended for clients". */
  maxAttempts: 5,
  /** Section 8.2: retryable statuses 500, 502, 503, 504, 429. */
  retryableStatuses: Object.freeze([429, 500, 502, 503, 504]) as readonly number[],
  /** Section 8.3: exponential backoff, base 500 ms. */
  backoffBaseMs: 500,
  /** Section 8.3: backoff cap 30 000 ms. */
  backoffCapMs: 30_000,
  /** Section 8.3: jitter up to 30 percent of the delay. */
  backoffJitter: 0.3,
  /** Section 8.3: when Retry-After is absent after a 429, wait 5 to 10 s. */
  rateLimitWaitMinMs: 5_000,
  rateLimitWaitMaxMs: 10_000,
  /** Section 8.4: 8 concurrent calls. */
  maxConcurrency: 8,
  /** Section 8.4: 4 concurrent calls if 429s occur. */
  reducedConcurrency: 4,
  /** Section 3 and 8.5: autosaves debounced 1 s. */
  autosaveDebounceMs: 1_000,
  /** Section 8.5: status polls at 3 s or longer intervals. */
  minStatusPollIntervalMs: 3_000,
  /** Section 8.5: task polls about every 2 s, with backoff. */
  taskPollIntervalMs: 2_000,
  /** Section 8.6 / 5.2: access token lifetime about 1 hour. */
  accessTokenLifetimeMs: 60 * 60 * 1000,
});

/**
 * Client choices where the specification gives no number. Each is an option default, documented
 * at the option; none is a vendor promise.
 */
export const CLIENT_DEFAULTS = Object.freeze({
  /** How long without a 429 before concurrency returns from 4 to 8 (Section 8.4 gives no period). */
  rateLimitQuietPeriodMs: 60_000,
  /** Longest Retry-After the client sleeps through; a longer one fails at once with RateLimitError. */
  maxRetryAfterMs: 60_000,
  /** Per-attempt timeout (Section 8.2's 5 s is the platform's own upstream timeout, not the client's). */
  attemptTimeoutMs: 30_000,
  /** Refresh this long before the access token's `exp`, so no request leaves with an expired token. */
  tokenRefreshSkewMs: 60_000,
  /** Page size when the caller gives none, and the largest accepted (Section 8.5: never limit=10000). */
  pageLimit: 100,
  maxPageLimit: 100,
  /** Redirect hops followed at most. */
  maxRedirects: 5,
});
