/**
 * The Durable Object class a worker re-exports and binds (docs/MANY-PROCESSES.md has the wrangler
 * configuration): one instance per environment and partner holds the partner's slots, pace and
 * cool-downs (partner-room.ts), and one per environment and sign-in identity the group's session
 * (session-room.ts). It answers the requests of `durableObjectCoordinator` (protocol.ts) and
 * nothing else: a request of another shape gets a 400, never a thrown error (an exception would
 * reset the object and its partners' state).
 */
import { PartnerRoom } from "./partner-room.ts";
import { type PartnerAsk, PROTOCOL, type Release, type SessionAsk } from "./protocol.ts";
import { SessionRoom } from "./session-room.ts";
import type { DurableObjectStateLike } from "./types.ts";

const json = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** The Durable Object that shares one partner's budget and session among every isolate of a worker. */
export class AudienceCoordinator {
  readonly #rooms = new Map<string, PartnerRoom>();
  readonly #session: SessionRoom;

  /** Called by the Workers runtime, with the object's state (its storage keeps the shared session). */
  constructor(state: DurableObjectStateLike, _env?: unknown) {
    this.#session = new SessionRoom(state.storage);
  }

  /** Answers one request of `durableObjectCoordinator`. */
  async fetch(request: Request): Promise<Response> {
    let ask: unknown;
    try {
      ask = await request.json();
    } catch {
      return json({ v: PROTOCOL, error: "not JSON" }, 400);
    }
    if (isPartnerAsk(ask)) {
      const { max, reduced, quietMs, pacing } = ask.room;
      const id = `${max}/${reduced}/${quietMs}/${pacing}`;
      let room = this.#rooms.get(id);
      if (!room) {
        room = new PartnerRoom({ max, reduced, quietMs, pacing });
        this.#rooms.set(id, room);
      }
      return json(await room.exchange(ask));
    }
    if (isSessionAsk(ask)) return json(await this.#session.step(ask));
    return json({ v: PROTOCOL, error: "not a request of this protocol" }, 400);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isMs = (v: unknown): v is number => isCount(v) && (v as number) <= 3_600_000;
/** More live isolates than one partner could have: a count above it is not one an isolate sends. */
const MAX_ISOLATES = 100_000;
const isId = (v: unknown): v is string => typeof v === "string" && v.length > 0 && v.length <= 200;

function isRelease(v: unknown): v is Release {
  return (
    Array.isArray(v) &&
    v.length === 5 &&
    isId(v[0]) &&
    (v[1] === "a" || v[1] === "r" || v[1] === "n") &&
    isMs(v[2]) &&
    (v[3] === 0 || v[3] === 1) &&
    isCount(v[4])
  );
}

function isPartnerAsk(v: unknown): v is PartnerAsk {
  if (!isObject(v) || v.v !== PROTOCOL || v.op !== "partner" || !isObject(v.room)) return false;
  const { max, reduced, quietMs, pacing } = v.room;
  const take = v.take;
  return (
    isCount(max) &&
    max >= 1 &&
    isCount(reduced) &&
    reduced >= 1 &&
    isMs(quietMs) &&
    (pacing === 0 || pacing === 1) &&
    isId(v.iso) &&
    (v.seen === 0 || v.seen === 1) &&
    isMs(v.quietLeft) &&
    (v.back === undefined || v.back === 0 || v.back === 1) &&
    (v.procs === undefined || (isCount(v.procs) && v.procs >= 1 && v.procs <= MAX_ISOLATES)) &&
    (v.pace === null || (typeof v.pace === "number" && v.pace > 0 && Number.isFinite(v.pace))) &&
    isMs(v.leaseMs) &&
    (v.leaseMs as number) > 0 &&
    isMs(v.liveMs) &&
    isMs(v.holdMs) &&
    Array.isArray(v.held) &&
    v.held.length <= 1_000 &&
    v.held.every(isId) &&
    Array.isArray(v.done) &&
    v.done.length <= 1_000 &&
    v.done.every(isRelease) &&
    (take === null ||
      (isObject(take) &&
        isId(take.id) &&
        (take.lane === "i" || take.lane === "b") &&
        (take.latestMs === null || isMs(take.latestMs))))
  );
}

function isSessionAsk(v: unknown): v is SessionAsk {
  if (!isObject(v) || v.v !== PROTOCOL || v.op !== "session") return false;
  switch (v.act) {
    case "read":
      return true;
    case "lock":
      return isMs(v.lockMs);
    case "renew":
      return isCount(v.fence) && isMs(v.lockMs);
    case "unlock":
      return isCount(v.fence);
    case "write":
      return isCount(v.fence) && (v.tokens === null || isObject(v.tokens)) && (v.coolMs === null || isMs(v.coolMs));
    default:
      return false;
  }
}
