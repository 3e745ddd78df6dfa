/**
 * The partner's concurrency slots and pace, shared in the process (issue 13, item 1). The API's
 * limits are per partner, not per client (Sections 5, 8): two clients of one partner at one
 * environment share one limiter and one pacer, so together they hold at most 8 calls in flight
 * (4 after a 429), and a 429 one of them meets slows both.
 *
 * Clients share when they agree on the settings that shape that state (`maxConcurrency`,
 * `rateLimitQuietPeriodMs`, `ratePacing`): differently configured clients keep apart, each with
 * the limits it was given. State lives as long as the process (one small object per partner and
 * setting); a `coordinator` across processes is the next step of issue 13.
 */
import { SPEC } from "../limits.ts";
import { ConcurrencyLimiter } from "./limiter.ts";
import { RatePacer } from "./pacer.ts";

interface PartnerSettings {
  /** Origin and path of the client's base address. */
  readonly environment: string;
  readonly maxConcurrency: number;
  readonly quietMs: number;
  readonly pacing: boolean;
}

interface PartnerState {
  readonly limiter: ConcurrencyLimiter;
  readonly pacer: RatePacer | undefined;
}

const partners = new Map<string, PartnerState>();

/** The process's state for `partnerId` (undefined: calls made before the partner is known). */
export function localPartner(settings: PartnerSettings, partnerId: string | undefined): PartnerState {
  const key = `${settings.environment}\n${partnerId ?? ""}\n${settings.maxConcurrency}\n${settings.quietMs}\n${settings.pacing}`;
  let state = partners.get(key);
  if (!state) {
    state = {
      limiter: new ConcurrencyLimiter({
        max: settings.maxConcurrency,
        reduced: Math.min(settings.maxConcurrency, SPEC.reducedConcurrency),
        quietMs: settings.quietMs,
      }),
      pacer: settings.pacing ? new RatePacer() : undefined,
    };
    partners.set(key, state);
  }
  return state;
}
