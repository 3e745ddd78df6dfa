/** Waits between attempts (Section 8.3). Pure functions: the randomness is passed in. */

import { SPEC } from "../limits.ts";
import type { ClientConfig } from "../options.ts";

/**
 * Wait before retry k (k = 1 for the first): d = min(cap, base·2^(k−1)), reduced by a random amount
 * up to 30 % of d, so it lies in [0.7·d, d].
 */
export function backoffDelayMs(k: number, retry: ClientConfig["retry"], random: number): number {
  const d = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (k - 1));
  return d - random * SPEC.backoffJitter * d;
}

/** A 429 without Retry-After: uniform in [min, max] (Section 8.3: 5 to 10 s). */
export function rateLimitDelayMs(retry: ClientConfig["retry"], random: number): number {
  const [min, max] = retry.rateLimitDelayMs;
  return min + random * (max - min);
}
