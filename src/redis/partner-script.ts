/**
 * The partner's shared slots, pace and 429 cool-down as Redis scripts. Each step
 * is one atomic script; time is Redis's own (`TIME`), never a process clock.
 *
 * KEYS: [1] the slot leases (sorted set: lease id → expiry), [2] the state (JSON: quiet period,
 * cool-down and the pacer's state), [3] the live processes (sorted set: process id → last seen).
 *
 * The pace is the in-process pacer's rule set itself: coordination/pacing-rules.ts, translated to
 * Lua by `npm run generate` (redis/generated/pacing-rules-lua.ts), run on a state kept in Redis, so that
 * what one process's calls teach it (admitted calls, 429s) paces every process of the partner, and
 * a process joining a busy partner starts at the shared pace. test/coordination/pacing-rules.test.ts
 * runs random event sequences through both and compares every decision. Differences: calls waiting
 * for the pace wait in their own process and ask again when their turn is due (there is no shared
 * queue), and the pace is checked before a slot is taken, so no slot is held while waiting for it.
 */

import { type Script, script } from "./commands.ts";
import { PACING_RULES_LUA } from "./generated/pacing-rules-lua.ts";

/** Redis's own clock, in ms. */
const REDIS_TIME = `
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** What every script starts with: the clock, the settings, the state's load and save, the rules. */
const common = (clock: string) => `
local function nowMs()${clock}
end
local NEG = -1e15
local S = cjson.decode(ARGV[1])
${PACING_RULES_LUA}
local function load(key)
  local raw = redis.call('GET', key)
  local st = raw and cjson.decode(raw) or {}
  st.fresh = not raw
  st.rlAt = st.rlAt or NEG
  st.cool = st.cool or 0
  st.rv = st.rv or 0
  st.en = st.en or 0
  st.ep = st.ep or 0
  st.cutAt = st.cutAt or 0
  st.sr = st.sr or 0
  st.mr = st.mr or 0
  st.ms = st.ms or 0
  st.tk = st.tk or 0
  st.rf = st.rf or 0
  st.wa = st.wa or NEG
  st.th = st.th or NEG
  st.ad = st.ad or 0
  st.an = st.an or {}
  st.oc = st.oc or 0
  st.sl = st.sl or {}
  for i = 1, slotCount(S) do st.sl[i] = st.sl[i] or 0 end
  st.si = st.si or 0
  return st
end
local function save(key, st, ttl)
  st.fresh = nil
  redis.call('SET', key, cjson.encode(st), 'PX', ttl)
end
local function pace(st, now)
  if st.en == 0 or idle(st, S, now) then return nil end
  return rateAt(st, S, now)
end
`;

/**
 * ARGV: settings JSON, lease id, lease ms, max, reduced, quiet ms, pacing (0/1), process id, live ms,
 * state ttl, and what this process knows of the partner (quiet period left in ms, pace or ''): a
 * state Redis lost (a restart without persistence, a failover, an eviction) starts from that
 * instead of from nothing, so a restarted Redis does not open the full cap in a quiet period or
 * drop the learned pace. Then: whether this process was counted live lately (1/0), and the
 * recovery ms.
 *
 * Leases lost with the state (FLUSHALL mid-burst) belong to calls still in flight: their processes
 * put them back at their next renewal (RENEW, every third of a lease). A process that was counted
 * live lately and finds no live processes knows the state was lost: it starts the recovery period,
 * during which no call is admitted, so that every holder renews first (Section 8.4: 8 in flight
 * for the partner, not 8 plus those Redis forgot).
 */
const ACQUIRE = `
local leaseId, leaseMs, max, reduced, quietMs = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local pacing, procId, liveMs, ttl = ARGV[7] == '1', ARGV[8], tonumber(ARGV[9]), tonumber(ARGV[10])
local now = nowMs()
local lost = ARGV[13] == '1' and redis.call('EXISTS', KEYS[3]) == 0
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZADD', KEYS[3], now, procId)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - liveMs)
redis.call('PEXPIRE', KEYS[3], ttl)
local procs = redis.call('ZCARD', KEYS[3])
local st = load(KEYS[2])
if st.fresh then
  local knownQuiet, knownPace = tonumber(ARGV[11]) or 0, tonumber(ARGV[12])
  if knownQuiet > 0 then st.rlAt = now - math.max(0, quietMs - knownQuiet) end
  if pacing and knownPace and knownPace > 0 then
    -- As RatePacer.startAt: paced at the known rate as if measured.
    cut(st, S, now, knownPace, knownPace, true)
    st.wa = now
  end
  if knownQuiet > 0 or (knownPace and knownPace > 0) then save(KEYS[2], st, ttl) end
end
if lost then
  st.rv = math.max(st.rv, now + tonumber(ARGV[14]))
  save(KEYS[2], st, ttl)
end
local limit = max
if now - st.rlAt < quietMs then limit = math.min(max, reduced) end
local quietLeft = math.max(0, st.rlAt + quietMs - now)
local function reply(kind, wait)
  local p = pace(st, now)
  return {kind, tostring(wait), tostring(limit), p and tostring(p) or '', tostring(st.cool - now), tostring(procs), tostring(quietLeft), tostring(st.ep)}
end
if now < st.rv then return reply('slot', st.rv - now) end
if redis.call('ZCARD', KEYS[1]) >= limit then
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return reply('slot', first[2] and (tonumber(first[2]) - now) or 0)
end
if pacing and st.en == 1 then
  if not take(st, S, now) then
    save(KEYS[2], st, ttl)
    return reply('pace', math.ceil(tokenWaitMs(st, S, now)))
  end
  save(KEYS[2], st, ttl)
end
redis.call('ZADD', KEYS[1], now + leaseMs, leaseId)
redis.call('PEXPIRE', KEYS[1], ttl)
return reply('ok', 0)
`;

/** ARGV: settings JSON, lease id, outcome (a: admitted, r: 429, n: no response), wait ms, Retry-After given (0/1), ticket, pacing (0/1), state ttl. */
const RELEASE = `
local leaseId, outcome, waitMs, retryAfter, ticket = ARGV[2], ARGV[3], tonumber(ARGV[4]), ARGV[5] == '1', tonumber(ARGV[6])
local pacing, ttl = ARGV[7] == '1', tonumber(ARGV[8])
local now = nowMs()
redis.call('ZREM', KEYS[1], leaseId)
if outcome == 'n' then return {'ok'} end
local st = load(KEYS[2])
if outcome == 'a' then
  if pacing then admitted(st, S, now) end
elseif outcome == 'r' then
  st.rlAt = now
  st.cool = math.max(st.cool, now + waitMs)
  -- A 429 with Retry-After says when to come back (Section 8.3): the pace learns nothing from it.
  if pacing and not retryAfter then throttled(st, S, now, ticket) end
end
save(KEYS[2], st, ttl)
local p = pace(st, now)
return {'ok', p and tostring(p) or '', tostring(st.cool - now)}
`;

/**
 * ARGV: settings JSON, lease ms, process id, state ttl, recovery ms, lease ids… Extends this
 * process's leases, putting back any Redis lost (their calls are still in flight); a lease put back
 * or no live processes found means the state was lost: the recovery period starts (see ACQUIRE).
 * Returns the live processes.
 */
const RENEW = `
local leaseMs, procId, ttl, recoverMs = tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5])
local now = nowMs()
local lost = redis.call('EXISTS', KEYS[3]) == 0
local back = 0
for i = 6, #ARGV do back = back + redis.call('ZADD', KEYS[1], now + leaseMs, ARGV[i]) end
if #ARGV >= 6 then redis.call('PEXPIRE', KEYS[1], ttl) end
if lost or back > 0 then
  local st = load(KEYS[2])
  st.rv = math.max(st.rv, now + recoverMs)
  save(KEYS[2], st, ttl)
end
redis.call('ZADD', KEYS[3], now, procId)
redis.call('PEXPIRE', KEYS[3], ttl)
return redis.call('ZCARD', KEYS[3])
`;

/** The three scripts, on `clock` (Lua returning ms; tests give one they set). */
export function partnerScripts(clock = REDIS_TIME): { acquire: Script; release: Script; renew: Script } {
  const head = common(clock);
  return { acquire: script(head + ACQUIRE), release: script(head + RELEASE), renew: script(head + RENEW) };
}
