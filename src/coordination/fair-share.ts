/**
 * While its shared store (Redis, a Durable Object) does not answer, a process goes on with its fair
 * share of the partner's last known state: the cap (Section 8.4's 8, 4 in a quiet period) and the
 * pace divided by the live processes it last counted, so that the processes together stay within
 * the partner's limits.
 */

import { ConcurrencyLimiter } from "../transport/limiter.ts";
import { RatePacer } from "../transport/pacer.ts";
import { LocalPartner } from "../transport/partner-state.ts";
import type { PartnerKey } from "./coordinator.ts";

/** What the process last saw of the shared state. */
export interface LastSeen {
  /** Live processes of the partner it last counted. */
  readonly processes: number;
  /** Whether it was in the quiet period after a 429 when the store went away. */
  readonly quiet: boolean;
  /** The shared pace (calls per second), if any. */
  readonly pace: number | undefined;
}

export function fairShare(key: PartnerKey, seen: LastSeen): LocalPartner {
  const share = Math.max(1, seen.processes);
  const limiter = new ConcurrencyLimiter({
    max: Math.max(1, Math.floor(key.maxConcurrency / share)),
    reduced: Math.max(1, Math.floor(key.reducedConcurrency / share)),
    quietMs: key.quietMs,
  });
  // In the quiet period after a 429 when the store went away: it goes on here (from now, the safe side).
  if (seen.quiet) limiter.rateLimited();
  const pacer = key.pacing ? new RatePacer() : undefined;
  if (pacer && seen.pace !== undefined) pacer.startAt(seen.pace / share);
  return new LocalPartner(limiter, pacer);
}
