/** The numbers of the benchmark scenarios, shared by the server process and the runner. */

/** Goodput: the server's token bucket per partner (the goodput target's limit: 20 calls/s, burst 10). */
export const RATE = 20;
export const BURST = 10;
/** Goodput: latency of every answer of the rate-limited mount. */
export const LATENCY_MS = 20;
/** Goodput: event benchmarks read per variant. */
export const GOODPUT_CALLS = 400;
/** Goodput: the best any client can do, (N − burst) / rate. */
export const IDEAL_S = (GOODPUT_CALLS - BURST) / RATE;

/**
 * Cluster: the server counts the calls in flight in the quiet period after a 429 (Section 8.4's
 * 4) from this long after it: a call sent before its client could hear of the 429 (latency,
 * event-loop delays on a loaded machine) is not the quiet period's.
 */
export const QUIET_GRACE_MS = 250;

/** Memory: events behind GET /events/ (pages of 100). */
export const TOTAL_EVENTS = 100_000;
