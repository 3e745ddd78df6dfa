/**
 * What a coordinator's tests ask of it: a partner key of its own per test (a fresh environment, so
 * no two tests share a partner's state in one store), an interactive turn request, and the load of
 * a partner with nothing in flight.
 */
import { randomUUID } from "node:crypto";
import type { PartnerKey, PartnerLoad, TurnRequest } from "../../src/coordination/coordinator.ts";

/** A key no other test uses: the Section 8.4 limits (8, then 4 for 60 s after a 429), paced. */
export function partnerKey(overrides: Partial<PartnerKey> = {}): PartnerKey {
  return {
    environment: `http://127.0.0.1:1/${randomUUID()}`,
    partnerId: "partner-a",
    maxConcurrency: 8,
    reducedConcurrency: 4,
    quietMs: 60_000,
    pacing: true,
    ...overrides,
  };
}

/** A turn of the interactive lane, without a signal or a deadline. */
export const interactiveTurn: TurnRequest = Object.freeze({
  signal: undefined,
  lane: "interactive",
  deadlineAt: undefined,
});

/** A partner with nothing in flight, nothing queued, no pace and no cool-down. */
export const idleLoad: PartnerLoad = Object.freeze({
  inFlight: 0,
  queued: Object.freeze({ interactive: 0, background: 0 }),
  concurrencyLimit: 8,
  pace: undefined,
  coolDownUntil: undefined,
  quietLeftMs: 0,
});
