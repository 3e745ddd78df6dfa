/**
 * The client's partners: each partner's shared state (slots, pace, cool-down) from the coordinator,
 * asked once per partner (the `coordinator` option; in the process by default, shared with every
 * client configured alike), its rate state, and the `onRateStateChange` watch.
 */
import type { PartnerCoordination, PartnerKey, Turn } from "../coordination/coordinator.ts";
import { warnOf } from "../internal/observed-logger.ts";
import type { ServerClock } from "../internal/server-clock.ts";
import { SPEC } from "../limits.ts";
import type { ClientConfig, Logger } from "../options.ts";
import { lazyRateWatch } from "./lazy-rate-watch.ts";
import { localCoordinator } from "./partner-state.ts";
import { type RateState, rateStateOf } from "./rate-state.ts";

export interface PartnerRegistry {
  /** The partner's shared state (its slots, pace and cool-down: the `coordinator` option). */
  readonly partnerFor: (partnerId: string | undefined) => PartnerCoordination;
  /** The partner's rate state now. */
  readonly rateState: (partnerId: string | undefined) => RateState;
}

export interface Partners extends PartnerRegistry {
  /** After each response of a partner: the rate-state watch, when `onRateStateChange` is set. */
  readonly onResponse: ((partnerId: string | undefined) => void) | undefined;
}

/** The options the partners' state is keyed and watched by. */
type PartnerOptions = Pick<
  ClientConfig,
  "coordinator" | "baseUrl" | "maxConcurrency" | "rateLimitQuietPeriodMs" | "ratePacing" | "onRateStateChange"
>;

/**
 * A turn whose `done` only reports how the attempt ended: a coordinator of the user's that throws
 * there must not turn a completed call (a write the server made) into a failed one, nor a network
 * failure into its own error.
 */
const quietDone = (turn: Turn): Turn => ({
  slotWaitMs: turn.slotWaitMs,
  paceWaitMs: turn.paceWaitMs,
  done(outcome) {
    try {
      turn.done(outcome);
    } catch {}
  },
});

/** The partner of a coordinator of the user's, its turns' `done` quiet; the process's own is trusted. */
const guarded = (partner: PartnerCoordination): PartnerCoordination => ({
  turn(request) {
    const pending = partner.turn(request);
    return pending instanceof Promise ? pending.then(quietDone) : quietDone(pending);
  },
  load: () => partner.load(),
});

export function partnerRegistry(config: PartnerOptions, clock: ServerClock, logger: Logger): Partners {
  const coordinator = config.coordinator ?? localCoordinator;
  const environment = `${config.baseUrl.origin}${config.baseUrl.pathname}`;
  const partners = new Map<string | undefined, PartnerCoordination>();
  const partnerFor = (partnerId: string | undefined): PartnerCoordination => {
    let partner = partners.get(partnerId);
    if (!partner) {
      const key: PartnerKey = {
        environment,
        partnerId,
        maxConcurrency: config.maxConcurrency,
        reducedConcurrency: SPEC.reducedConcurrency,
        quietMs: config.rateLimitQuietPeriodMs,
        pacing: config.ratePacing,
      };
      partner = coordinator.partner(key);
      if (config.coordinator) partner = guarded(partner);
      partners.set(partnerId, partner);
    }
    return partner;
  };
  const rateState = (partnerId: string | undefined): RateState =>
    rateStateOf(partnerId, partnerFor(partnerId).load(), clock);
  const listener = config.onRateStateChange;
  const check = listener && lazyRateWatch(listener, warnOf(logger));
  const onResponse =
    check &&
    ((partnerId: string | undefined): void =>
      check(
        partnerId ?? "",
        () => rateState(partnerId),
        () => partnerFor(partnerId).load().quietLeftMs,
      ));
  return { partnerFor, rateState, onResponse };
}
