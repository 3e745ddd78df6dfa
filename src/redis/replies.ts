/**
 * The replies of the coordinator's scripts, checked before use. A reply of another shape did not
 * come from our script on a working Redis (a proxy, a Redis-like server, a store someone else
 * writes): it means Redis is away, as a timeout does, never a raw TypeError or a poll that never
 * ends (partner-script.ts, redis-session.ts give the shapes).
 */
import { CLIENT_DEFAULTS } from "../limits.ts";
import { RedisUnavailable, type Reply } from "./commands.ts";

/** The longest wait the pace asks: one token at the lowest rate it paces at. */
const LONGEST_PACE_WAIT_MS = Math.ceil(1000 / CLIENT_DEFAULTS.pacing.minRatePerSecond);

/** What an ACQUIRE reply says. */
export interface AcquireReply {
  readonly kind: "ok" | "pace" | "slot";
  /** For "pace": ms until the pace allows the call. */
  readonly waitMs: number;
  /** [limit, pace, cool-down left, processes, quiet left, epoch], as the script sent them. */
  readonly state: string[];
  /** The pace epoch: the call's ticket. */
  readonly epoch: number;
}

const unexpected = (what: string): RedisUnavailable =>
  new RedisUnavailable(`an unexpected reply from Redis to ${what} (not our script's shape)`);

const isNumber = (text: string): boolean => text.trim() !== "" && Number.isFinite(Number(text));
const isCount = (text: string): boolean => isNumber(text) && Number.isSafeInteger(Number(text)) && Number(text) >= 0;

/** The ACQUIRE reply, or a RedisUnavailable when it is not one our script could give for `max`. */
export function acquireReply(reply: Reply, max: number, quietMs: number): AcquireReply {
  if (!Array.isArray(reply) || reply.length !== 8 || !reply.every((r) => typeof r === "string"))
    throw unexpected("a turn");
  const [kind, wait, limit, pace, cool, procs, quiet, epoch] = reply as string[] as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const valid =
    (kind === "ok" || kind === "pace" || kind === "slot") &&
    isNumber(wait) &&
    (kind !== "pace" || (Number(wait) >= 0 && Number(wait) <= LONGEST_PACE_WAIT_MS)) &&
    isCount(limit) &&
    Number(limit) >= 1 &&
    Number(limit) <= max &&
    (pace === "" || (isNumber(pace) && Number(pace) > 0)) &&
    isNumber(cool) &&
    isCount(procs) &&
    isNumber(quiet) &&
    Number(quiet) >= 0 &&
    Number(quiet) <= quietMs &&
    isCount(epoch);
  if (!valid) throw unexpected("a turn");
  return { kind, waitMs: Number(wait), state: reply.slice(2) as string[], epoch: Number(epoch) };
}

/** The session READ reply: [record JSON or '', Redis's now in ms]. */
export function readReply(reply: Reply): { raw: string; now: number } {
  if (!Array.isArray(reply) || reply.length !== 2) throw unexpected("a session read");
  const [raw, now] = reply;
  if (typeof raw !== "string" || typeof now !== "string" || !isNumber(now)) throw unexpected("a session read");
  return { raw, now: Number(now) };
}

/** The session LOCK reply: the fence taken, or 0 when another holds the lock. */
export function fenceReply(reply: Reply): number {
  const fence = typeof reply === "number" || typeof reply === "string" ? Number(reply) : Number.NaN;
  if (!Number.isSafeInteger(fence) || fence < 0) throw unexpected("a session lock");
  return fence;
}
