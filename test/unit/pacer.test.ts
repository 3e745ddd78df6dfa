/**
 * The rate pacer (transport/pacer.ts) on an injected clock and timer queue: every assertion is
 * about virtual time, so nothing here depends on how fast the machine is.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createAudienceClient } from "../../src/index.ts";
import { CLIENT_DEFAULTS } from "../../src/limits.ts";
import { ConcurrencyLimiter } from "../../src/transport/limiter.ts";
import { limiterPolicy } from "../../src/transport/limiter-policy.ts";
import { type PacerSettings, type PaceTicket, RatePacer } from "../../src/transport/pacer.ts";
import { LocalPartner } from "../../src/transport/partner-state.ts";
import type { CallContext } from "../../src/transport/policy.ts";

const P = CLIENT_DEFAULTS.pacing;

/** A virtual clock with a timer queue; `advance` runs due timers in order and lets promises settle. */
function virtualTime() {
  let now = 0;
  let seq = 0;
  const timers: Array<{ at: number; seq: number; fn: () => void; live: boolean }> = [];
  const settle = async () => {
    for (let i = 0; i < 20; i++) await Promise.resolve();
  };
  return {
    now: () => now,
    setTimer(fn: () => void, ms: number) {
      const timer = { at: now + ms, seq: seq++, fn, live: true };
      timers.push(timer);
      return () => {
        timer.live = false;
      };
    },
    pending: () => timers.filter((t) => t.live).length,
    async advance(ms: number) {
      const end = now + ms;
      for (let guard = 0; guard < 100_000; guard++) {
        await settle();
        const due = timers.filter((t) => t.live && t.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
        if (!due) break;
        due.live = false;
        now = due.at;
        due.fn();
      }
      now = end;
      await settle();
    },
  };
}

type Clock = ReturnType<typeof virtualTime>;

function pacerOn(clock: Clock, settings: Partial<PacerSettings> = {}) {
  return new RatePacer({ now: clock.now, setTimer: (fn, ms) => clock.setTimer(fn, ms), settings });
}

/** Calls `take` and records when (virtual ms) each grant arrives. */
function taker(pacer: RatePacer, clock: Clock) {
  const grants: Array<{ id: number; at: number; ticket: PaceTicket }> = [];
  return {
    grants,
    take(id: number, signal?: AbortSignal): Promise<PaceTicket> {
      const t = pacer.take(signal);
      const done = (ticket: PaceTicket) => {
        grants.push({ id, at: clock.now(), ticket });
        return ticket;
      };
      return typeof t === "number" ? Promise.resolve(done(t)) : t.then(done);
    },
  };
}

/** Ten calls admitted over the first 50 ms (a partner's burst), then `refusals` 429s at 60 ms. */
async function burstThenRefusals(pacer: RatePacer, clock: Clock, refusals: number) {
  for (let i = 0; i < 10; i++) {
    await clock.advance(5);
    pacer.admitted();
  }
  await clock.advance(10);
  for (let i = 0; i < refusals; i++) pacer.throttled(0);
}

/** After the burst, the partner admits 20 calls/s for 1.5 s, then refuses a call sent under the pace. */
async function measuredAt20(pacer: RatePacer, clock: Clock) {
  await burstThenRefusals(pacer, clock, 5); // engaged at 60 ms, ticket 1
  for (let i = 0; i < 30; i++) {
    await clock.advance(50);
    pacer.admitted();
  }
  pacer.throttled(1);
}

describe("rate pacer", () => {
  it("is off until 429s: every call gets its ticket at once and no timer runs", () => {
    const clock = virtualTime();
    const pacer = pacerOn(clock);
    for (let i = 0; i < 1000; i++) {
      expect(pacer.take()).toBe(0);
      pacer.admitted();
    }
    expect(pacer.rate).toBeUndefined();
    expect(clock.pending()).toBe(0);
  });

  it("a lone 429, or stray 429s among admitted calls, leave pacing off", async () => {
    const clock = virtualTime();
    const pacer = pacerOn(clock);
    pacer.admitted();
    pacer.throttled(0); // one of the first two calls: a short history counts as admitted
    expect(pacer.rate).toBeUndefined();
    await burstThenRefusals(pacer, clock, 1);
    expect(pacer.rate).toBeUndefined();
    for (let i = 0; i < 200; i++) {
      await clock.advance(5);
      if (i % 3 === 0)
        pacer.throttled(0); // a third refused: under the share that engages
      else pacer.admitted();
    }
    expect(pacer.rate).toBeUndefined();
  });

  it("does not engage when nothing was admitted lately (the retry waits pace those calls)", async () => {
    const clock = virtualTime();
    const pacer = pacerOn(clock);
    for (let i = 0; i < 10; i++) pacer.throttled(0);
    expect(pacer.rate).toBeUndefined();
  });

  it("engages once most recent calls are refused, at the rate admitted over the last window, and paces in order", async () => {
    const clock = virtualTime();
    const pacer = pacerOn(clock);
    await burstThenRefusals(pacer, clock, 4);
    expect(pacer.rate).toBeUndefined(); // 4 of the last 10
    pacer.throttled(0);
    // 5 of the last 10 refused; 10 admitted during the last second: 10 calls/s.
    expect(pacer.rate).toBeCloseTo(10, 6);
    const t = taker(pacer, clock);
    const all = Promise.all([1, 2, 3, 4].map((id) => t.take(id)));
    await clock.advance(1_000);
    await all;
    expect(t.grants.map((g) => g.id)).toEqual([1, 2, 3, 4]);
    // Slow start from 10/s: the first token after ~100 ms, then a little faster each time.
    const gaps = t.grants.map((g, i) => g.at - (i === 0 ? 60 : (t.grants[i - 1]?.at ?? 0)));
    expect(gaps[0]).toBeGreaterThanOrEqual(90);
    expect(gaps[0]).toBeLessThanOrEqual(101);
    for (const gap of gaps.slice(1)) {
      expect(gap).toBeGreaterThan(60);
      expect(gap).toBeLessThanOrEqual(101);
    }
    expect(t.grants.every((g) => g.ticket === 1)).toBe(true);
  });

  it("measures the partner's rate between 429s and paces at beta × that rate", async () => {
    const clock = virtualTime();
    const pacer = pacerOn(clock);
    await measuredAt20(pacer, clock);
    // Anchors at 60 ms; 30 admitted in 1.5 s, minus the token the partner may have held.
    expect(pacer.measuredRate).toBeCloseTo(29 / 1.5, 6);
    expect(pacer.rate).toBeCloseTo(P.beta * (29 / 1.5), 6);
  });

  it("recovers CUBIC-style to the measured rate after recoveryMs, then doubles every doublingMs above it", async () => {
    const clock = virtualTime();
    const pacer = pacerOn(clock, { idleOffMs: Number.POSITIVE_INFINITY }); // calls keep waiting
    await measuredAt20(pacer, clock);
    const max = pacer.measuredRate as number;
    const rates: number[] = [];
    for (let t = 0; t <= P.recoveryMs; t += P.recoveryMs / 4) {
      rates.push(pacer.rate as number);
      await clock.advance(P.recoveryMs / 4);
    }
    expect(rates[0]).toBeCloseTo(P.beta * max, 6);
    expect(rates[4]).toBeCloseTo(max, 6); // at recoveryMs
    for (let i = 1; i < rates.length; i++) expect(rates[i] as number).toBeGreaterThanOrEqual(rates[i - 1] as number);
    // P.recoveryMs / 4 past recovery already: doubling each doublingMs from there.
    const past = P.recoveryMs / 4;
    expect(pacer.rate).toBeCloseTo(max * 2 ** (past / P.doublingMs), 3);
  });

  it("turns off idleOffMs after the last call that had to wait and the last 429 (the climb-back bound)", async () => {
    const clock = virtualTime();
    const pacer = pacerOn(clock);
    await measuredAt20(pacer, clock);
    const t = taker(pacer, clock);
    // Calls keep waiting for 5 s: pacing stays on all that time.
    for (let i = 0; i < 50; i++) void t.take(i);
    await clock.advance(1_000);
    expect(pacer.rate).toBeDefined();
    await clock.advance(4_000);
    expect(pacer.queued).toBe(0);
    // Nobody waits and no 429 comes: off within idleOffMs of the last wait.
    const lastGrant = Math.max(...t.grants.map((g) => g.at));
    await clock.advance(Math.max(0, lastGrant + P.idleOffMs - clock.now()));
    expect(pacer.rate).toBeUndefined();
    expect(pacer.take()).toBe(pacer.take()); // tickets at once, no waiting
    expect(pacer.queued).toBe(0);
  });

  it("a 429 for a call sent before the latest cut does not cut again", async () => {
    const clock = virtualTime();
    const pacer = pacerOn(clock);
    await measuredAt20(pacer, clock);
    const rate = pacer.rate;
    await clock.advance(1_500);
    const before = pacer.rate as number;
    pacer.throttled(1); // sent under the previous pace
    expect(pacer.rate).toBeCloseTo(before, 6);
    expect(before).toBeGreaterThan(rate as number);
    pacer.throttled(2); // sent under the current one
    expect(pacer.rate as number).toBeLessThan(before);
  });

  it("a queued call whose signal aborts leaves the queue at once; the others keep their turn", async () => {
    const clock = virtualTime();
    const pacer = pacerOn(clock);
    await burstThenRefusals(pacer, clock, 5);
    const t = taker(pacer, clock);
    const controller = new AbortController();
    const first = t.take(1);
    const second = t.take(2, controller.signal);
    const third = t.take(3);
    expect(pacer.queued).toBe(3);
    controller.abort(new Error("caller gave up"));
    await expect(second).rejects.toThrow("caller gave up");
    expect(pacer.queued).toBe(2);
    await clock.advance(1_000);
    await Promise.all([first, third]);
    expect(t.grants.map((g) => g.id)).toEqual([1, 3]);
  });

  it("an already aborted signal is refused without queueing, and an emptied queue stops its timer", async () => {
    const clock = virtualTime();
    const pacer = pacerOn(clock);
    await burstThenRefusals(pacer, clock, 5);
    const reason = new Error("already");
    await expect(pacer.take(AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(pacer.queued).toBe(0);
    const controller = new AbortController();
    const waiting = pacer.take(controller.signal) as Promise<PaceTicket>;
    expect(clock.pending()).toBe(1);
    controller.abort(new Error("gone"));
    await expect(waiting).rejects.toThrow("gone");
    expect(clock.pending()).toBe(0);
  });

  it("slow start without any further 429 turns pacing back off after the horizon", async () => {
    const clock = virtualTime();
    const pacer = pacerOn(clock);
    await burstThenRefusals(pacer, clock, 5);
    expect(pacer.rate).toBeDefined();
    await clock.advance(P.horizonMs + 1);
    expect(pacer.take()).toBe(1);
    expect(pacer.rate).toBeUndefined();
  });

  it("property: grants follow the order of take, whatever aborts", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 25 }), async (aborts) => {
        const clock = virtualTime();
        const pacer = pacerOn(clock);
        await burstThenRefusals(pacer, clock, 5);
        const t = taker(pacer, clock);
        const controllers = aborts.map(() => new AbortController());
        const pending = aborts.map((_, i) => t.take(i, controllers[i]?.signal).catch(() => undefined));
        aborts.forEach((abort, i) => {
          if (abort) controllers[i]?.abort(new Error("x"));
        });
        await clock.advance(60_000);
        await Promise.all(pending);
        const expected = aborts.flatMap((abort, i) => (abort ? [] : [i]));
        return JSON.stringify(t.grants.map((g) => g.id)) === JSON.stringify(expected) && pacer.queued === 0;
      }),
      { numRuns: 50 },
    );
  });

  it("property: paced grants never outrun the rate in force by more than the bucket", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 5, maxLength: 60 }),
        async (arrivals) => {
          const clock = virtualTime();
          // Measured mode, beta 1: the pace starts at the measured rate, on the CUBIC plateau.
          const pacer = pacerOn(clock, { beta: 1 });
          await measuredAt20(pacer, clock);
          const rate = pacer.rate as number;
          const t = taker(pacer, clock);
          const pending: Promise<PaceTicket>[] = [];
          for (const gap of arrivals) {
            await clock.advance(gap);
            pending.push(t.take(pending.length));
          }
          await clock.advance(60_000);
          await Promise.all(pending);
          // Near the CUBIC plateau the rate barely moves within a few seconds: allow 5 %.
          const capacity = Math.max(1, (rate * 1.05 * P.burstMs) / 1000);
          const start = t.grants[0]?.at ?? 0;
          return t.grants.every((g, i) => i + 1 <= capacity + ((g.at - start) * rate * 1.05) / 1000 + 1);
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe("limiter policy with a pacer", () => {
  const ctx = (signal: AbortSignal) => ({ partnerId: "p1", signal }) as unknown as CallContext;

  it("reports 429s as throttled and every other status as admitted, per partner", async () => {
    const clock = virtualTime();
    const pacers = new Map<string, RatePacer>();
    const pacerFor = (id: string | undefined) => {
      let p = pacers.get(id ?? "");
      if (!p) {
        p = pacerOn(clock);
        pacers.set(id ?? "", p);
      }
      return p;
    };
    const limiter = new ConcurrencyLimiter({ max: 8, reduced: 4, quietMs: 60_000, now: clock.now });
    const policy = limiterPolicy({ partnerFor: (id) => new LocalPartner(limiter, pacerFor(id)) });
    const statuses = [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429, 503, 429, 429, 429, 429];
    for (const status of statuses) {
      await clock.advance(5);
      await policy(new Request("http://127.0.0.1/x"), ctx(new AbortController().signal), async () => ({
        response: new Response(null, { status }),
      }));
    }
    expect(limiter.limit).toBe(4);
    // 11 admitted (the 503 counts: it used a token), then 5 of the last 10 refused: engaged.
    expect(pacers.get("p1")?.rate).toBeCloseTo(11, 6);
    expect(pacers.size).toBe(1);
  });

  it("a 429 with Retry-After lowers the cap but teaches the pacer nothing: the server's wait governs", async () => {
    const clock = virtualTime();
    const pacer = pacerOn(clock);
    const limiter = new ConcurrencyLimiter({ max: 8, reduced: 4, quietMs: 60_000, now: clock.now });
    const policy = limiterPolicy({ partnerFor: () => new LocalPartner(limiter, pacer) });
    const statuses = [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 429, 429, 429, 429, 429, 429];
    for (const status of statuses) {
      await clock.advance(5);
      const headers = status === 429 ? { "retry-after": "0" } : undefined;
      await policy(new Request("http://127.0.0.1/x"), ctx(new AbortController().signal), async () => ({
        response: new Response(null, { status, ...(headers ? { headers } : {}) }),
      }));
    }
    expect(limiter.limit).toBe(4); // Section 8.4: 4 after 429s, whatever the header
    expect(pacer.rate).toBeUndefined(); // the same 429s without Retry-After engage it (test above)
  });

  it("the limiter's fast path takes a free slot at once, and never jumps the queue or the cap", async () => {
    const limiter = new ConcurrencyLimiter({ max: 2, reduced: 1, quietMs: 60_000 });
    const a = limiter.tryAcquire();
    const b = limiter.tryAcquire();
    expect(a && b).toBeTruthy();
    expect(limiter.tryAcquire()).toBeUndefined(); // cap reached
    const queued = limiter.acquire();
    a?.();
    const c = await queued; // the freed slot went to the waiter
    expect(limiter.tryAcquire()).toBeUndefined();
    b?.();
    c();
    limiter.rateLimited();
    const d = limiter.tryAcquire();
    expect(limiter.tryAcquire()).toBeUndefined(); // reduced cap after a 429
    d?.();
    expect(limiter.active).toBe(0);
  });

  it("a call waiting for its pace gives its concurrency slot back when it aborts", async () => {
    const clock = virtualTime();
    const pacer = pacerOn(clock);
    await burstThenRefusals(pacer, clock, 5);
    const limiter = new ConcurrencyLimiter({ max: 1, reduced: 1, quietMs: 0, now: clock.now });
    const policy = limiterPolicy({ partnerFor: () => new LocalPartner(limiter, pacer) });
    const controller = new AbortController();
    const call = policy(new Request("http://127.0.0.1/x"), ctx(controller.signal), async () => ({
      response: new Response(null, { status: 200 }),
    }));
    await clock.advance(1);
    expect(limiter.active).toBe(1);
    controller.abort(new Error("stop"));
    await expect(call).rejects.toThrow("stop");
    expect(limiter.active).toBe(0);
    expect(pacer.queued).toBe(0);
  });
});

describe("ratePacing option", () => {
  const base = { baseUrl: "https://api.example.test/api/v3", credentials: { username: "u", password: "p-secret" } };

  it("defaults to on and accepts false", () => {
    expect(createAudienceClient(base).config.ratePacing).toBe(true);
    expect(createAudienceClient({ ...base, ratePacing: false }).config.ratePacing).toBe(false);
  });

  it("refuses anything but a boolean with a TypeError naming the option", () => {
    expect(() => createAudienceClient({ ...base, ratePacing: "yes" as never })).toThrow(TypeError);
    expect(() => createAudienceClient({ ...base, ratePacing: 1 as never })).toThrow(/"ratePacing"/);
  });
});
