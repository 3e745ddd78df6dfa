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

/** Retry-After as seconds or an HTTP-date, in ms from `now`; undefined when absent or garbage. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return undefined; // "-5", "", "1e3": not a date either
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
