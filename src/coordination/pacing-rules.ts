/**
 * The partner's pacing rules, written once (Section 8.1 keeps the partner's rate secret, Section
 * 8.3 makes each 429 cost 5–10 s: the client learns the rate from 429s and paces below it). Both
 * pacers run them: transport/pacer.ts on a state in the process, and the Redis coordinator's
 * scripts on a state in Redis, through the Lua that `npm run generate` writes from this file
 * (src/redis/generated/pacing-rules-lua.ts, scripts/lib/emit-lua.ts). The algorithm is described in
 * transport/pacer.ts.
 *
 * Pure functions over a plain state, in the subset of TypeScript that emit-lua.ts translates:
 * numbers and 0/1 flags (Lua takes 0 as true), `Math.*`, `if`, counted `for` loops, arrays of
 * numbers (a 0-based index here, 1-based in Lua), and functions declared before their callers.
 */
import type { CLIENT_DEFAULTS } from "../limits.ts";

/** The constants of CLIENT_DEFAULTS.pacing; tests may pass others. */
export type PacerSettings = { readonly [K in keyof typeof CLIENT_DEFAULTS.pacing]: number };

/**
 * One partner's pace. The fields have the short names of the JSON state Redis keeps (unchanged, so
 * that versions mix, and short in the browser bundle too); flags are 0/1, anchors a flat list.
 */
export interface PaceState {
  /** Pacing on (1) or off (0). */
  en: number;
  /** The epoch: counts cuts; a 429 for a call sent under an earlier epoch says nothing new. */
  ep: number;
  /** The latest cut: when, the rate it started from (sr), and the measured rate it recovers to (mr). */
  cutAt: number;
  sr: number;
  mr: number;
  /** Whether mr was measured (1), or the pace slow-starts before a measurement (0). */
  ms: number;
  /** The client bucket's tokens, and when it was last refilled. */
  tk: number;
  rf: number;
  /** When a call last had to wait for its turn, and when the last 429 came. */
  wa: number;
  th: number;
  /** Calls admitted so far. */
  ad: number;
  /** 429s as measurement anchors: when, and `ad` then, in pairs. */
  an: number[];
  /** Outcomes of the latest `shareOf` calls, newest in the lowest binary digit (1 = 429). */
  oc: number;
  /** Calls admitted per 100 ms slot over the last `windowMs`, and the slot of the latest. */
  sl: number[];
  si: number;
}

const MAX_ANCHORS = 32;
/** A burst of 429s is one anchor: its first, the longest span (keeps 32 anchors meaningful). */
const ANCHOR_SPACING_MS = 100;
const SLOT_MS = 100;
/** The unmeasured pace's ceiling: finite, because JSON (the Redis state) holds no Infinity. */
const UNMEASURED = 1e300;

/** A state with pacing off and no history (TypeScript only: Lua's load() fills in the same). */
export function newPaceState(s: PacerSettings): PaceState {
  const never = Number.NEGATIVE_INFINITY;
  const sl = new Array<number>(slotCount(s)).fill(0);
  return {
    en: 0,
    ep: 0,
    cutAt: 0,
    sr: 0,
    mr: 0,
    ms: 0,
    tk: 0,
    rf: 0,
    wa: never,
    th: never,
    ad: 0,
    an: [],
    oc: 0,
    sl,
    si: 0,
  };
}

function slotCount(s: PacerSettings): number {
  return Math.max(1, Math.ceil(s.windowMs / SLOT_MS));
}

/** Slow start before a measurement; CUBIC around the measured rate after one. */
export function rateAt(st: PaceState, s: PacerSettings, now: number): number {
  const elapsed = Math.max(0, now - st.cutAt);
  let rate = 0;
  if (st.ms === 0) {
    rate = st.sr * 2 ** (elapsed / s.doublingMs);
  } else if (elapsed < s.recoveryMs) {
    const k = s.recoveryMs / 1000;
    const c = (st.mr - st.sr) / k ** 3;
    rate = st.mr + c * (elapsed / 1000 - k) ** 3;
  } else {
    // Back at the measured rate: probe above it as fast as slow start does.
    rate = st.mr * 2 ** ((elapsed - s.recoveryMs) / s.doublingMs);
  }
  return Math.max(s.minRatePerSecond, rate);
}

export function refill(st: PaceState, s: PacerSettings, now: number): void {
  const rate = rateAt(st, s, now);
  const capacity = Math.max(1, (rate * s.burstMs) / 1000);
  st.tk = Math.min(capacity, st.tk + (rate * Math.max(0, now - st.rf)) / 1000);
  st.rf = now;
}

/** No call waited and no 429 came for `idleOffMs`, or a slow start met no 429 within the horizon. */
export function idle(st: PaceState, s: PacerSettings, now: number): boolean {
  const quiet = now - Math.max(st.wa, st.th, st.cutAt);
  return quiet >= s.idleOffMs || (st.ms === 0 && now - st.cutAt > s.horizonMs);
}

/** Ms until the bucket holds a token at the current rate (0 when it holds one). */
export function tokenWaitMs(st: PaceState, s: PacerSettings, now: number): number {
  return st.tk >= 1 ? 0 : ((1 - st.tk) * 1000) / rateAt(st, s, now);
}

/**
 * While pacing is on: whether a call may go now, taking its token; when not, it is marked as
 * waiting. Pacing goes back off once nobody waited for the pace and no 429 came for a while: a pace
 * that delays nobody is not needed, and a stale one must never make the client slower than the
 * specification's waits.
 */
export function take(st: PaceState, s: PacerSettings, now: number): boolean {
  if (idle(st, s, now)) {
    st.en = 0;
    return true;
  }
  refill(st, s, now);
  if (st.tk >= 1) {
    st.tk -= 1;
    return true;
  }
  st.wa = now;
  return false;
}

export function cut(
  st: PaceState,
  s: PacerSettings,
  now: number,
  maxRate: number,
  startRate: number,
  measured: boolean,
): void {
  st.mr = measured ? maxRate : UNMEASURED;
  st.sr = Math.max(s.minRatePerSecond, startRate);
  st.ms = measured ? 1 : 0;
  st.en = 1;
  st.ep += 1;
  st.cutAt = now;
  st.rf = now;
}

function record(st: PaceState, s: PacerSettings, refused: number): void {
  st.oc = (st.oc * 2 + refused) % 2 ** s.shareOf;
}

/** Share of 429s among the latest `shareOf` calls (a shorter history counts as admitted). */
function refusedShare(st: PaceState, s: PacerSettings): number {
  let refused = 0;
  let bits = st.oc;
  while (bits > 0) {
    refused += bits % 2;
    bits = Math.floor(bits / 2);
  }
  return refused / s.shareOf;
}

function advanceSlots(st: PaceState, s: PacerSettings, now: number): void {
  const n = slotCount(s);
  const slot = Math.floor(now / SLOT_MS);
  if (slot !== st.si) {
    const gap = Math.min(n, slot - st.si);
    for (let i = 1; i <= gap; i++) st.sl[(st.si + i) % n] = 0;
    st.si = slot;
  }
}

/** Admitted calls per second over the last `windowMs` (a shorter history counts as the full window). */
function recentRate(st: PaceState, s: PacerSettings, now: number): number {
  advanceSlots(st, s, now);
  const n = slotCount(s);
  let total = 0;
  for (let i = 0; i < n; i++) total += st.sl[i] as number;
  return (total * 1000) / (n * SLOT_MS);
}

/** The tightest lower bound of the partner's rate: admitted calls per second since an earlier 429. */
function measure(st: PaceState, s: PacerSettings, now: number): number | undefined {
  let best: number | undefined;
  for (let i = 0; i < st.an.length; i += 2) {
    const span = now - (st.an[i] as number);
    if (span >= s.windowMs && span <= s.horizonMs) {
      // The partner held less than one token at the earlier 429: discount it.
      const rate = (Math.max(0, st.ad - (st.an[i + 1] as number) - 1) * 1000) / span;
      if (best === undefined || rate > best) best = rate;
    }
  }
  return best;
}

/** The partner admitted a call (any status but 429): it used one of the partner's tokens. */
export function admitted(st: PaceState, s: PacerSettings, now: number): void {
  st.ad += 1;
  record(st, s, 0);
  advanceSlots(st, s, now);
  const i = st.si % slotCount(s);
  (st.sl[i] as number) += 1;
}

/** A 429 for a call sent under `ticket` (an epoch): the partner's bucket is empty now. */
export function throttled(st: PaceState, s: PacerSettings, now: number, ticket: number): void {
  st.th = now;
  record(st, s, 1);
  if (st.en === 0) {
    const recent = recentRate(st, s, now);
    if (refusedShare(st, s) >= s.engageShare && recent > 0) cut(st, s, now, s.minRatePerSecond, recent, false);
  } else if (ticket >= st.ep) {
    refill(st, s, now);
    const current = rateAt(st, s, now);
    const measured = measure(st, s, now);
    if (measured !== undefined) {
      // Leaving slow start, the pace of one doubling ago drew no 429 (the measurement can be
      // low there: the partner's tokens overflowed while the client was still below the limit).
      const floor = st.ms === 1 ? 0 : current / 2;
      const max = Math.max(s.minRatePerSecond, floor, Math.min(measured, current));
      cut(st, s, now, max, s.beta * max, true);
    } else if (refusedShare(st, s) >= s.engageShare) {
      // Too soon after the previous 429 to measure, and most calls are refused: halve the pace
      // (TCP's multiplicative decrease) and slow-start again until a 429 measures.
      cut(st, s, now, s.minRatePerSecond, current / 2, false);
    }
  }
  if (st.en === 1) {
    refill(st, s, now);
    st.tk = 0; // the partner has none left either
  }
  const n = st.an.length;
  if (n === 0 || now - (st.an[n - 2] as number) >= ANCHOR_SPACING_MS) st.an.push(now, st.ad);
  if (st.an.length > 2 * MAX_ANCHORS) st.an.splice(0, 2);
}
