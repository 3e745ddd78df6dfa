/**
 * The group's session in Redis: the tokens one process obtained, the /auth cool-down,
 * and a sign-in lock with a fencing token. One process signs in or refreshes while the others wait
 * for the lock, then adopt what it stored. A holder that lost the lock (it stalled past `lockMs` and
 * another took over) cannot overwrite the newer session: its writes carry a fence older than the
 * newest issued, and are refused.
 *
 * Keys: `rec` (JSON: tokens, cool-down end in Redis time, fence), `lock` (the holder's fence, with
 * an expiry), `fence` (the counter). The record holds tokens: protect the Redis like the tokens.
 */
import type { SessionShare, SharedSessionRecord } from "../coordination/coordinator.ts";
import { withFencedLock } from "../coordination/fenced-lock.ts";
import { sharedTokens } from "../coordination/shared-tokens.ts";
import { LONGEST_SHARED_COOL_DOWN_MS, trustedMsLeft } from "../coordination/stored-limits.ts";
import type { SessionTokens } from "../session/tokens.ts";
import { type RedisCommands, script } from "./commands.ts";
import { fenceReply, readReply } from "./replies.ts";
import type { RedisSettings } from "./settings.ts";

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** KEYS: rec. Returns [record JSON or '', now]. */
const READ = script(`${NOW}
return {redis.call('GET', KEYS[1]) or '', tostring(now)}`);

/**
 * KEYS: lock, fence. ARGV: lock ms, ttl ms. Returns the new fence, or 0 when another holds the lock.
 * The counter expires like the record (WRITE renews both alike), so it never outlives the group's
 * state by more than a ttl, and never dies while a record it fenced lives.
 */
const LOCK = script(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local fence = redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
redis.call('SET', KEYS[1], fence, 'PX', ARGV[1])
return fence`);

/** KEYS: lock. ARGV: fence, lock ms. Extends the lock while the fence still holds it. */
const RENEW = script(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`);

/** KEYS: lock. ARGV: fence. */
const UNLOCK = script(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`);

/** KEYS: rec, fence. ARGV: fence, tokens JSON or '', cool-down ms or '', ttl ms. Returns 1 when written. */
const WRITE = script(`${NOW}
local fence = tonumber(ARGV[1])
if fence ~= tonumber(redis.call('GET', KEYS[2]) or '0') then return 0 end
local raw = redis.call('GET', KEYS[1])
local rec = raw and cjson.decode(raw) or {}
if ARGV[2] ~= '' then rec.tokens = cjson.decode(ARGV[2]) end
if ARGV[3] ~= '' then rec.cool = now + tonumber(ARGV[3]) end
rec.fence = fence
redis.call('SET', KEYS[1], cjson.encode(rec), 'PX', ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return 1`);

export class RedisSessionShare implements SessionShare {
  readonly #redis: RedisCommands;
  readonly #rec: string;
  readonly #lock: string;
  readonly #fence: string;
  readonly #s: RedisSettings;

  constructor(redis: RedisCommands, prefix: string, settings: RedisSettings) {
    this.#redis = redis;
    this.#rec = `${prefix}rec`;
    this.#lock = `${prefix}lock`;
    this.#fence = `${prefix}fence`;
    this.#s = settings;
  }

  async read(): Promise<SharedSessionRecord> {
    const { raw, now } = readReply(await this.#redis.run(READ, [this.#rec], []));
    if (!raw) return { fence: 0 };
    let rec: { tokens?: unknown; cool?: unknown; fence?: unknown };
    try {
      rec = JSON.parse(raw) as typeof rec;
    } catch {
      return { fence: 0 }; // not ours, or damaged: as if nothing was stored (never quoted: it may hold tokens)
    }
    const tokens = sharedTokens(rec.tokens);
    // Never longer than this client writes (a record of something else, or a clock stepped back).
    const coolDownMs = typeof rec.cool === "number" ? trustedMsLeft(rec.cool - now, LONGEST_SHARED_COOL_DOWN_MS) : 0;
    return {
      fence: Number.isSafeInteger(rec.fence) && (rec.fence as number) > 0 ? (rec.fence as number) : 0,
      ...(tokens ? { tokens } : {}),
      ...(coolDownMs > 0 ? { coolDownMs } : {}),
    };
  }

  withLock<T>(
    fn: (fence: number) => Promise<T>,
    options?: { readonly signal?: AbortSignal; readonly deadlineAt?: number },
  ): Promise<T> {
    const { lockMs, lockWaitMs, pollMs, stateTtlMs } = this.#s;
    const steps = {
      lock: async () => fenceReply(await this.#redis.run(LOCK, [this.#lock, this.#fence], [lockMs, stateTtlMs])),
      renew: (fence: number) => this.#redis.run(RENEW, [this.#lock], [fence, lockMs]),
      unlock: (fence: number) => this.#redis.run(UNLOCK, [this.#lock], [fence]),
    };
    // Asked again about every 2 × pollMs while another holds it.
    return withFencedLock(steps, { lockMs, lockWaitMs, pollMs: pollMs * 2 }, fn, options);
  }

  async write(
    update: { readonly tokens?: SessionTokens; readonly coolDownMs?: number },
    fence: number,
  ): Promise<boolean> {
    const tokens = update.tokens ? JSON.stringify(update.tokens) : "";
    const cool =
      update.coolDownMs === undefined
        ? ""
        : String(Math.ceil(Math.min(update.coolDownMs, LONGEST_SHARED_COOL_DOWN_MS)));
    const written = await this.#redis.run(WRITE, [this.#rec, this.#fence], [fence, tokens, cool, this.#s.stateTtlMs]);
    return Number(written) === 1;
  }
}
