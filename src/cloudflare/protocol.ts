/**
 * What an isolate and the `AudienceCoordinator` object say to each other: one JSON request per
 * exchange, one JSON reply. Both sides check what they receive: the object answers 400 to a
 * request it did not expect, and an isolate treats a reply of another shape (a proxy's page, a
 * different worker bound under the name, an older object) as the object being away.
 */
import { CLIENT_DEFAULTS } from "../limits.ts";

/** The protocol's version: a reply of another version is not understood. */
export const PROTOCOL = 1;

/** A finished turn given back: [lease id, outcome (a: admitted, r: 429, n: no response or abandoned), wait ms, Retry-After given (0/1), ticket]. */
export type Release = [string, "a" | "r" | "n", number, 0 | 1, number];

/** The partner's settings that shape its state (clients configured alike share it). */
export interface RoomKey {
  readonly max: number;
  readonly reduced: number;
  readonly quietMs: number;
  readonly pacing: 0 | 1;
}

/** A turn asked for: the lease id it will hold, its lane, and how long it may wait for the pace. */
export interface TakeAsk {
  readonly id: string;
  readonly lane: "i" | "b";
  /** Ms until the call's deadline: a pace wait longer than this is answered "late". */
  readonly latestMs: number | null;
}

/** One exchange about a partner's slots: releases, renewals and at most one turn, in one request. */
export interface PartnerAsk {
  readonly v: typeof PROTOCOL;
  readonly op: "partner";
  readonly room: RoomKey;
  readonly iso: string;
  /** Whether the object heard from this isolate lately: finding no state then means it lost it. */
  readonly seen: 0 | 1;
  /** What the isolate knows, for an object that lost its state: quiet period left (ms) and pace. */
  readonly quietLeft: number;
  readonly pace: number | null;
  /**
   * 1: the isolate ran on its fair share since the object last answered it (the object was away),
   * so what it reports is newer than the object's own state: a pace the object let go idle while
   * nobody reached it, a 429 it never heard of. Absent from isolates of an earlier release.
   */
  readonly back?: 0 | 1;
  /**
   * The partner's live isolates this isolate last counted (the object's count, as it last
   * answered): an object that lost its state admits again once that many reported their leases.
   * Absent from isolates of an earlier release (then it waits half a lease).
   */
  readonly procs?: number;
  readonly leaseMs: number;
  readonly liveMs: number;
  readonly holdMs: number;
  readonly held: readonly string[];
  readonly done: readonly Release[];
  readonly take: TakeAsk | null;
}

/** The object's answer to a {@link PartnerAsk}. */
export interface PartnerReply {
  readonly v: typeof PROTOCOL;
  /** ok: the turn is granted; late: the pace would pass the deadline; again: held too long, ask again; none: no turn was asked. */
  readonly kind: "ok" | "late" | "again" | "none";
  /** For "late": ms until the pace allows it. */
  readonly wait: number;
  /** Ms the turn waited in the object for a slot, and for the pace. */
  readonly slotMs: number;
  readonly paceMs: number;
  /** The pace epoch when granted: the turn's ticket. */
  readonly epoch: number;
  readonly limit: number;
  readonly pace: number | null;
  /** Ms of the partner's 429 cool-down left (0 or less: none). */
  readonly cool: number;
  /** The partner's live isolates. */
  readonly procs: number;
  /** Ms of the quiet period after the latest 429 left. */
  readonly quiet: number;
  /** Turns waiting in the object for a slot now (others' included): a slot given back is wanted at once. */
  readonly waiting: number;
}

/** One step of the shared session. */
export type SessionStep =
  | { readonly act: "read" }
  | { readonly act: "lock"; readonly lockMs: number }
  | { readonly act: "renew"; readonly fence: number; readonly lockMs: number }
  | { readonly act: "unlock"; readonly fence: number }
  | {
      readonly act: "write";
      readonly fence: number;
      readonly tokens: Readonly<Record<string, string>> | null;
      readonly coolMs: number | null;
    };

/** A session step as sent. */
export type SessionAsk = { readonly v: typeof PROTOCOL; readonly op: "session" } & SessionStep;

/** The object's answer to a {@link SessionAsk}: the record (read), the fence taken (lock, 0: held by another), or whether it applied. */
export interface SessionReply {
  readonly v: typeof PROTOCOL;
  readonly tokens?: unknown;
  readonly coolMs?: number;
  readonly fence?: number;
  readonly ok?: boolean;
}

/** The reply was not one the object could give. */
export class ObjectUnavailable extends Error {
  override name = "ObjectUnavailable";
}

/** The longest wait the pace asks: one token at the lowest rate it paces at. */
const LONGEST_PACE_WAIT_MS = Math.ceil(1000 / CLIENT_DEFAULTS.pacing.minRatePerSecond);

const num = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const count = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const KINDS = new Set(["ok", "late", "again", "none"]);

/** The reply to a {@link PartnerAsk}, or ObjectUnavailable when it is not one the object could give for `room`. */
export function partnerReply(value: unknown, room: RoomKey, quietMs: number): PartnerReply {
  const r = value as Partial<PartnerReply> | null;
  const valid =
    typeof r === "object" &&
    r !== null &&
    r.v === PROTOCOL &&
    KINDS.has(r.kind as string) &&
    num(r.wait) &&
    r.wait >= 0 &&
    r.wait <= LONGEST_PACE_WAIT_MS &&
    num(r.slotMs) &&
    num(r.paceMs) &&
    count(r.epoch) &&
    count(r.limit) &&
    r.limit >= 1 &&
    r.limit <= room.max &&
    (r.pace === null || (num(r.pace) && r.pace > 0)) &&
    num(r.cool) &&
    count(r.procs) &&
    num(r.quiet) &&
    r.quiet >= 0 &&
    r.quiet <= quietMs &&
    count(r.waiting);
  if (!valid) throw new ObjectUnavailable("an unexpected reply from the coordinator object to a turn");
  return r as PartnerReply;
}

/** The reply to a {@link SessionAsk}, or ObjectUnavailable. */
export function sessionReply(value: unknown): SessionReply {
  const r = value as SessionReply | null;
  const valid =
    typeof r === "object" &&
    r !== null &&
    r.v === PROTOCOL &&
    (r.fence === undefined || count(r.fence)) &&
    (r.coolMs === undefined || num(r.coolMs)) &&
    (r.ok === undefined || typeof r.ok === "boolean");
  if (!valid) throw new ObjectUnavailable("an unexpected reply from the coordinator object to a session step");
  return r;
}
