/**
 * The partner's shared slots, pace and 429 cool-down as Redis scripts. Each step
 * is one atomic script; time is Redis's own (`TIME`), never a process clock.
 *
 * KEYS: [1] the slot leases (sorted set: lease id → expiry), [2] the state (JSON: quiet period,
 * cool-down and the pacer's state), [3] the live processes (sorted set: process id → last seen).
 *
 * The pace is transport/pacer.ts's algorithm, rule for rule, on state kept in Redis, so that what
 * one process's calls teach it (admitted calls, 429s) paces every process of the partner, and a
 * process joining a busy partner starts at the shared pace. test/coordination/conformance.ts runs
 * the same cases against both. Differences: calls waiting for the pace wait in their own process
 * and ask again when their turn is due (there is no shared queue), and the pace is checked before
 * a slot is taken, so no slot is held while waiting for the pace.
 */
import { script } from "./commands.ts";

const COMMON = `
local function nowMs()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local NEG = -1e15
local function load(key)
  local raw = redis.call('GET', key)
  local st = raw and cjson.decode(raw) or {}
  st.fresh = not raw
  st.rlAt = st.rlAt or NEG
  st.cool = st.cool or 0
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
  st.si = st.si or 0
  st.rv = st.rv or 0
  return st
end
local function save(key, st, ttl)
  st.fresh = nil
  redis.call('SET', key, cjson.encode(st), 'PX', ttl)
end
local S = cjson.decode(ARGV[1])
local INF = 1e300

local function rateAt(st, now)
  local elapsed = math.max(0, now - st.cutAt)
  local rate
  if st.ms == 0 then
    rate = st.sr * 2 ^ (elapsed / S.doublingMs)
  elseif elapsed < S.recoveryMs then
    local k = S.recoveryMs / 1000
    local c = (st.mr - st.sr) / (k ^ 3)
    rate = st.mr + c * (elapsed / 1000 - k) ^ 3
  else
    rate = st.mr * 2 ^ ((elapsed - S.recoveryMs) / S.doublingMs)
  end
  return math.max(S.minRatePerSecond, rate)
end
local function refill(st, now)
  local rate = rateAt(st, now)
  local capacity = math.max(1, rate * S.burstMs / 1000)
  st.tk = math.min(capacity, st.tk + rate * math.max(0, now - st.rf) / 1000)
  st.rf = now
end
local function idle(st, now)
  local quiet = now - math.max(st.wa, st.th, st.cutAt)
  return quiet >= S.idleOffMs or (st.ms == 0 and now - st.cutAt > S.horizonMs)
end
local function pace(st, now)
  if st.en == 0 or idle(st, now) then return nil end
  return rateAt(st, now)
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
export const ACQUIRE = script(`${COMMON}
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
    st.en, st.ms, st.mr, st.sr, st.cutAt, st.rf, st.ep, st.wa = 1, 1, knownPace, knownPace, now, now, 1, now
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
  if idle(st, now) then
    st.en = 0
  else
    refill(st, now)
    if st.tk >= 1 then
      st.tk = st.tk - 1
    else
      st.wa = now
      save(KEYS[2], st, ttl)
      return reply('pace', math.ceil((1 - st.tk) * 1000 / rateAt(st, now)))
    end
  end
  save(KEYS[2], st, ttl)
end
redis.call('ZADD', KEYS[1], now + leaseMs, leaseId)
redis.call('PEXPIRE', KEYS[1], ttl)
return reply('ok', 0)
`);

/** ARGV: settings JSON, lease id, outcome (a: admitted, r: 429, n: no response), wait ms, Retry-After given (0/1), ticket, pacing (0/1), state ttl. */
export const RELEASE = script(`${COMMON}
local leaseId, outcome, waitMs, retryAfter, ticket = ARGV[2], ARGV[3], tonumber(ARGV[4]), ARGV[5] == '1', tonumber(ARGV[6])
local pacing, ttl = ARGV[7] == '1', tonumber(ARGV[8])
local now = nowMs()
redis.call('ZREM', KEYS[1], leaseId)
if outcome == 'n' then return {'ok'} end
local st = load(KEYS[2])
local WINDOW = math.max(1, math.ceil(S.windowMs / 100))

local function advanceSlots()
  local slot = math.floor(now / 100)
  if slot ~= st.si then
    local gap = math.min(WINDOW, slot - st.si)
    for i = 1, gap do st.sl[((st.si + i) % WINDOW) + 1] = 0 end
    st.si = slot
  end
  for i = 1, WINDOW do st.sl[i] = st.sl[i] or 0 end
end
local function record(refused)
  local n = S.shareOf
  st.oc = ((st.oc * 2) + refused) % (2 ^ n)
end
local function refusedShare()
  local refused, bits = 0, st.oc
  while bits > 0 do
    refused = refused + (bits % 2)
    bits = math.floor(bits / 2)
  end
  return refused / S.shareOf
end
local function recentRate()
  advanceSlots()
  local total = 0
  for i = 1, WINDOW do total = total + st.sl[i] end
  return total * 1000 / (WINDOW * 100)
end
local function cut(maxRate, startRate, measured)
  st.mr = measured and maxRate or INF
  st.sr = math.max(S.minRatePerSecond, startRate)
  st.ms = measured and 1 or 0
  st.en = 1
  st.ep = st.ep + 1
  st.cutAt = now
  st.rf = now
end
local function measure()
  local best = nil
  for i = 1, #st.an, 2 do
    local span = now - st.an[i]
    if span >= S.windowMs and span <= S.horizonMs then
      local rate = math.max(0, st.ad - st.an[i + 1] - 1) * 1000 / span
      if best == nil or rate > best then best = rate end
    end
  end
  return best
end

if outcome == 'a' then
  if pacing then
    st.ad = st.ad + 1
    record(0)
    advanceSlots()
    local i = (st.si % WINDOW) + 1
    st.sl[i] = st.sl[i] + 1
  end
elseif outcome == 'r' then
  st.rlAt = now
  st.cool = math.max(st.cool, now + waitMs)
  if pacing and not retryAfter then
    st.th = now
    record(1)
    if st.en == 0 then
      local recent = recentRate()
      if refusedShare() >= S.engageShare and recent > 0 then cut(S.minRatePerSecond, recent, false) end
    elseif ticket >= st.ep then
      refill(st, now)
      local current = rateAt(st, now)
      local measured = measure()
      if measured ~= nil then
        local floor = 0
        if st.ms == 0 then floor = current / 2 end
        local m = math.max(S.minRatePerSecond, floor, math.min(measured, current))
        cut(m, S.beta * m, true)
      elseif refusedShare() >= S.engageShare then
        cut(S.minRatePerSecond, current / 2, false)
      end
    end
    if st.en == 1 then
      refill(st, now)
      st.tk = 0
    end
    local n = #st.an
    if n == 0 or now - st.an[n - 1] >= 100 then
      table.insert(st.an, now)
      table.insert(st.an, st.ad)
    end
    while #st.an > 64 do
      table.remove(st.an, 1)
      table.remove(st.an, 1)
    end
  end
end
save(KEYS[2], st, ttl)
local p = pace(st, now)
return {'ok', p and tostring(p) or '', tostring(st.cool - now)}
`);

/**
 * ARGV: settings JSON, lease ms, process id, state ttl, recovery ms, lease ids… Extends this
 * process's leases, putting back any Redis lost (their calls are still in flight); a lease put back
 * or no live processes found means the state was lost: the recovery period starts (see ACQUIRE).
 * Returns the live processes.
 */
export const RENEW = script(`${COMMON}
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
`);
