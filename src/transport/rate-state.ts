/**
 * The partner's rate state as a plain snapshot: what the limiter, the pacer and
 * the server's clock know, for `client.rateState()`, for the `RateLimitError` of a call that ran
 * out of retries, and for `onRateStateChange` (rate-state-watch.ts). A snapshot is built only when
 * asked for.
 */
import type { PartnerLoad } from "../coordination/coordinator.ts";
import type { ServerClock } from "../internal/server-clock.ts";
import type { RateState } from "../rate-state.ts";

export type { RateState };

export function rateStateOf(partnerId: string | undefined, load: PartnerLoad, clock: ServerClock): RateState {
  const rate = load.pace;
  const until = load.coolDownUntil;
  return {
    partnerId,
    inFlight: load.inFlight,
    queued: { interactive: load.queued.interactive, background: load.queued.background },
    concurrencyLimit: load.concurrencyLimit,
    pace: rate === undefined ? null : Math.round(rate * 100) / 100,
    coolDownUntil: until !== undefined && until > Date.now() ? until : null,
    clockSkewMs: clock.skewMs,
  };
}
