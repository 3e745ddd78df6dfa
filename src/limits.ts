/**
 * Every number the client takes from the API specification, in one place, with its section.
 * Options may lower or (where the specification allows) change them; nothing else hard-codes them.
 */
export const SPEC = Object.freeze({
  /** Section 1 and 9.1: the main API's path prefix; the base address already includes it. */
  apiVersionPath: "/api/v3",
  /** Section 1 and 9.1: the media host is the main API's host under this prefix, without a version. */
  mediaPath: "/api/media",
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
  /** Section 8.3: upper end of the 5 to 10 s wait after a 429 without Retry-After. */
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
  /**
   * A replaced token or password stays masked for the attempt timeout plus this margin (an attempt
   * sent with it may still answer, and its error and log lines are made just after), and a token
   * until its own `exp` in server time (it is a valid bearer until then), internal/redact.ts.
   */
  retiredSecretMarginMs: 5_000,
  /**
   * The memory bound of those retired secrets: characters of their forms per slot. A JWT of 1–2 KB
   * has forms of about 20 K characters (itself, base64 and base64url at three alignments, hex),
   * so 8 Mi keeps some 400 generations, twenty times the 20 refreshes of a 401 storm; a long token
   * is held by its beginning (redact.ts, LONG_SECRET).
   */
  maxRetiredSecretChars: 8 * 1024 * 1024,
  /**
   * Start a refresh this long before the access token's `exp` (or at half the lifetime of a token
   * that lives less than twice this), in the background: calls keep the current token meanwhile.
   */
  tokenRefreshSkewMs: 60_000,
  /**
   * Calls wait for the refresh only once the token is this close to `exp` (or a tenth of its
   * lifetime, when shorter), so that no request leaves with a token about to expire in flight.
   */
  tokenHardMarginMs: 10_000,
  /**
   * How long /auth is left alone once its tokens were expired on arrival even after the one
   * refresh that follows (session/renewal.ts): the API's clock or token issuer is wrong, which does
   * not mend within seconds, and /auth has the tightest budget (Section 8.5). Longer than any
   * backoff (Section 8.3 caps it at 30 s), so the password is sent at most once a minute.
   */
  expiredOnArrivalCoolDownMs: 60_000,
  /** Share of responses onDrift checks after the first of each operation and status (drift is systematic). */
  driftSampleRate: 0.01,
  /** Page size when the caller gives none, and the largest accepted (Section 8.5: never limit=10000). */
  maxPageLimit: 100,
  /**
   * Highest `maxPageLimit` option accepted: a client choice, not from the specification (Section 8
   * lists "Maximum page size: not shown"). Ten times the default page, a tenth of the limit=10000
   * Section 8.5 names as what bulk reads must not ask for.
   */
  maxPageLimitCeiling: 1000,
  /** Pages a list iteration fetches at most (a server that never ends a list must not loop for ever). */
  maxPages: 10_000,
  /**
   * Largest response body read (option `maxResponseBytes`), after decompression. A page of the
   * largest size the client asks for (1 000 items) is a few MB; eight calls in flight then hold at
   * most 64 MiB, which fits an edge runtime's 128 MB. The specification gives no size (Section 8
   * gaps: upload size limits not shown; response sizes not shown either).
   */
  maxResponseBytes: 8 * 1024 * 1024,
  /** Highest `maxResponseBytes` accepted: far below the largest string a JS engine can hold. */
  maxResponseBytesCeiling: 256 * 1024 * 1024,
  /** Redirect hops followed at most. */
  maxRedirects: 5,
  /**
   * Deepest JSON request body sent. The bodies of this API nest a few levels; `JSON.stringify`
   * recurses and overflows the stack at a few thousand (about 4 000 in Node 20), so deeper bodies
   * are refused before sending instead of failing with a raw RangeError.
   */
  maxJsonBodyDepth: 1_000,
  /**
   * Client-side rate pacing per partner (coordination/pacing-rules.ts, run by transport/pacer.ts and
   * the Redis coordinator). Section 8.1 keeps the partner's rate secret and Section 8.3 makes every
   * 429 cost the caller 5–10 s, so the client learns the rate from 429s and paces below it. The scheme follows the AWS SDKs' adaptive retry mode (a token
   * bucket, off until the first throttle, CUBIC recovery); the numbers are the client's own.
   */
  pacing: Object.freeze({
    /**
     * After a 429, pace at this fraction of the partner's measured rate. AWS uses 0.7 of its
     * measured *sending* rate; the rate measured here is what the partner admitted, so a small
     * margin suffices and little throughput is lost.
     */
    beta: 0.9,
    /**
     * CUBIC recovery: time to climb back to the measured rate after a cut, before probing above it.
     * Long on purpose: each probe past the limit costs one call a 5–10 s wait (Section 8.3), and
     * partner limits change rarely (Section 8.1: "adjusted per partner").
     */
    recoveryMs: 20_000,
    /** Shortest span between two 429s from which a rate is measured (shorter is timing noise). */
    windowMs: 1_000,
    /** 429s older than this no longer serve as measurement anchors (the limit may have changed). */
    horizonMs: 30_000,
    /**
     * Pacing starts once this share of the partner's latest `shareOf` calls drew a 429 (and some
     * were admitted lately): a lone 429, or a few percent of stray ones, leaves calls unpaced.
     */
    engageShare: 0.5,
    shareOf: 10,
    /** Before the first measurement, and above the measured rate after recovery, the pace doubles this often. */
    doublingMs: 1_000,
    /**
     * Pacing turns off once no call has waited for its turn and no 429 has come for this long: the
     * bound on how long a pace outlives the 429s that set it while it delays nobody.
     */
    idleOffMs: 2_000,
    /** Slowest pace, calls per second (the AWS SDK's minimum fill rate). */
    minRatePerSecond: 0.5,
    /** Burst the client bucket holds, as time at the paced rate (at least one call). */
    burstMs: 100,
  }),
});
