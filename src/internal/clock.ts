/**
 * Clocks. Durations (cool-downs, quiet periods, pacing) are measured on a monotonic clock, which a
 * step of the system clock does not move; wall time is only for what means wall time (a token's
 * `exp`, an HTTP date).
 */
export const monotonicNow = (): number => performance.now();
