/**
 * `@audience-intelligence/client/coordination` — the coordinator interface, for the authors of a
 * store that shares a partner's state between processes. A client's user passes a coordinator
 * (`redisCoordinator` from `/redis`, `fileCoordinator` from `/node`) and needs none of these names.
 * @module @audience-intelligence/client/coordination
 */

export {
  type Coordinator,
  type Lane,
  type PartnerCoordination,
  type PartnerKey,
  type PartnerLoad,
  type SessionKey,
  type SessionShare,
  type SharedSessionRecord,
  type SharedTokens,
  TooLate,
  type Turn,
  type TurnOutcome,
  type TurnRequest,
} from "./coordinator.ts";
