/**
 * The coordinator conformance suite: one behaviour, specified once, which every
 * coordinator passes: the in-process default (local-conformance.test.ts), Redis
 * (redis-conformance.test.ts) and, for the session part, the file share of the /node entry.
 *
 * `open()` gives a coordinator as another process would see it: for the default, the same state;
 * for Redis, another coordinator on another connection to the same server.
 */
import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import type {
  Coordinator,
  PartnerCoordination,
  SessionShare,
  Turn,
  TurnRequest,
} from "../../src/coordination/coordinator.ts";
import { partnerKey } from "../support/partner-keys.ts";

const request = (overrides: Partial<TurnRequest> = {}): TurnRequest => ({
  signal: undefined,
  lane: "interactive",
  deadlineAt: undefined,
  ...overrides,
});

const take = async (partner: PartnerCoordination, overrides?: Partial<TurnRequest>): Promise<Turn> =>
  partner.turn(request(overrides));

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, ms = 2_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await pause(5);
  }
}

/** Whether `promise` settles within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([promise.then(() => true), pause(ms).then(() => false)]);
}

export function partnerConformance(name: string, open: () => Coordinator): void {
  describe(`${name}: the partner's slots, pace and cool-down`, () => {
    it("holds at most maxConcurrency turns at once; the next gets one as soon as one is done", async () => {
      const partner = open().partner(partnerKey({ maxConcurrency: 3 }));
      const held = await Promise.all([take(partner), take(partner), take(partner)]);
      const fourth = take(partner);
      expect(await settlesWithin(fourth, 150)).toBe(false);
      held[0]?.done({ kind: "admitted" });
      expect(await settlesWithin(fourth, 1_000)).toBe(true);
      for (const t of [...held.slice(1), await fourth]) t.done({ kind: "admitted" });
    });

    it("two processes of one partner share its slots (4 + 4 of 8: the ninth waits)", async () => {
      const key = partnerKey();
      const a = open().partner(key);
      const b = open().partner(key);
      const held = await Promise.all([
        ...Array.from({ length: 4 }, () => take(a)),
        ...Array.from({ length: 4 }, () => take(b)),
      ]);
      const ninth = take(b);
      expect(await settlesWithin(ninth, 150)).toBe(false);
      held[0]?.done({ kind: "no-response" });
      expect(await settlesWithin(ninth, 1_000)).toBe(true);
      for (const t of [...held.slice(1), await ninth]) t.done({ kind: "admitted" });
    });

    it("different partners and environments do not share slots", async () => {
      const key = partnerKey({ maxConcurrency: 1 });
      const coordinator = open();
      const one = await take(coordinator.partner(key));
      const other = coordinator.partner({ ...key, partnerId: "partner-b" });
      const elsewhere = coordinator.partner({ ...key, environment: `${key.environment}-2` });
      expect(
        await settlesWithin(
          take(other).then((t) => t.done({ kind: "admitted" })),
          500,
        ),
      ).toBe(true);
      expect(
        await settlesWithin(
          take(elsewhere).then((t) => t.done({ kind: "admitted" })),
          500,
        ),
      ).toBe(true);
      one.done({ kind: "admitted" });
    });

    it("a 429 lowers the cap to the reduced one for the quiet period, for every process; then it returns", async () => {
      const key = partnerKey({ maxConcurrency: 4, reducedConcurrency: 2, quietMs: 400, pacing: false });
      const a = open().partner(key);
      const b = open().partner(key);
      (await take(a)).done({ kind: "rate-limited", waitMs: 5_000, retryAfter: true });
      await pause(50);
      const held = [await take(b), await take(b)];
      const third = take(b);
      expect(await settlesWithin(third, 150)).toBe(false);
      expect(await settlesWithin(third, 1_500)).toBe(true); // the quiet period ended
      for (const t of [...held, await third]) t.done({ kind: "admitted" });
      const cool = b.load().coolDownUntil;
      expect(cool).toBeGreaterThan(Date.now() + 3_000);
      expect(cool).toBeLessThan(Date.now() + 5_500);
    });

    it("a turn waiting for a slot leaves when its signal aborts, with the signal's reason, and takes nothing", async () => {
      const partner = open().partner(partnerKey({ maxConcurrency: 1 }));
      const held = await take(partner);
      const controller = new AbortController();
      const waiting = take(partner, { signal: controller.signal });
      await pause(30);
      controller.abort(new Error("stop waiting"));
      await expect(waiting).rejects.toThrow("stop waiting");
      held.done({ kind: "admitted" });
      const next = await take(partner);
      next.done({ kind: "admitted" });
      expect(partner.load().inFlight).toBe(0);
    });

    it("the background lane waits behind the interactive one", async () => {
      const partner = open().partner(partnerKey({ maxConcurrency: 1 }));
      const held = await take(partner);
      const order: string[] = [];
      const low = take(partner, { lane: "background" }).then((t) => {
        order.push("background");
        t.done({ kind: "admitted" });
      });
      await pause(10);
      const high = take(partner).then((t) => {
        order.push("interactive");
        t.done({ kind: "admitted" });
      });
      await pause(10);
      held.done({ kind: "admitted" });
      await Promise.all([low, high]);
      expect(order).toEqual(["interactive", "background"]);
    });

    it("the pace: most calls refused engages it; turns are then spaced, in every process, and a joining process starts at it", async () => {
      const key = partnerKey({ maxConcurrency: 8 });
      const a = open().partner(key);
      for (let i = 0; i < 10; i++) (await take(a)).done({ kind: "admitted" });
      const refused = await Promise.all(Array.from({ length: 5 }, () => take(a)));
      for (const t of refused) t.done({ kind: "rate-limited", waitMs: 5_000, retryAfter: false });
      await until(() => a.load().pace !== undefined);
      const pace = a.load().pace as number;
      expect(pace).toBeGreaterThan(0);
      expect(pace).toBeLessThan(100);
      // A process that joins now is paced at once: three turns cannot all go in the first 60 ms.
      const joined = open().partner(key);
      const started = performance.now();
      for (let i = 0; i < 3; i++) (await take(joined)).done({ kind: "admitted" });
      expect(performance.now() - started).toBeGreaterThan(60);
    });

    it("a 429 with Retry-After lowers the cap but does not engage the pace (the server's wait governs)", async () => {
      const key = partnerKey();
      const a = open().partner(key);
      for (let i = 0; i < 10; i++) (await take(a)).done({ kind: "admitted" });
      const refused = await Promise.all(Array.from({ length: 5 }, () => take(a)));
      for (const t of refused) t.done({ kind: "rate-limited", waitMs: 1_000, retryAfter: true });
      await pause(50);
      expect(a.load().pace).toBeUndefined();
      expect(a.load().concurrencyLimit).toBe(4);
    });

    it("a turn the pace would give after the call's deadline is refused at once (TooLate)", async () => {
      const key = partnerKey();
      const a = open().partner(key);
      for (let i = 0; i < 10; i++) (await take(a)).done({ kind: "admitted" });
      const refused = await Promise.all(Array.from({ length: 6 }, () => take(a)));
      for (const t of refused) t.done({ kind: "rate-limited", waitMs: 5_000, retryAfter: false });
      await until(() => a.load().pace !== undefined);
      // Tokens were emptied by the 429s: the next turn is at least one pace interval away.
      const late = take(a, { deadlineAt: performance.now() + 1 });
      await expect(late).rejects.toMatchObject({ name: "TooLate" });
    });
  });
}

/** `share(group)`: the session of `group` as one more process sees it. */
export function sessionConformance(name: string, share: (group: string) => SessionShare): void {
  describe(`${name}: the shared session`, () => {
    let group = "";
    beforeEach(() => {
      group = randomUUID();
    });
    const open = () => share(group);

    it("reads fence 0 and no tokens before any write", async () => {
      expect(await open().read()).toEqual({ fence: 0 });
    });

    it("one holder at a time, fences strictly increasing, across handles", async () => {
      const handles = [open(), open(), open()];
      let inside = 0;
      let most = 0;
      const fences: number[] = [];
      await Promise.all(
        handles.flatMap((h) =>
          [1, 2].map(() =>
            h.withLock(async (fence) => {
              inside += 1;
              most = Math.max(most, inside);
              fences.push(fence);
              await pause(10);
              inside -= 1;
            }),
          ),
        ),
      );
      expect(most).toBe(1);
      expect(fences).toEqual([...fences].sort((x, y) => x - y));
      expect(new Set(fences).size).toBe(6);
    });

    it("the newest holder's write lands; an older fence's write is refused and changes nothing", async () => {
      const a = open();
      const b = open();
      const old = await a.withLock(async (fence) => fence);
      await b.withLock(async (fence) => {
        expect(await b.write({ tokens: { accessToken: "newer" } }, fence)).toBe(true);
      });
      expect(await a.write({ tokens: { accessToken: "stale" } }, old)).toBe(false);
      const record = await open().read();
      expect(record.tokens?.accessToken).toBe("newer");
      expect(record.fence).toBeGreaterThan(old);
    });

    it("keeps the refresh and id tokens, and a cool-down as ms left", async () => {
      const a = open();
      await a.withLock(async (fence) => {
        await a.write({ tokens: { accessToken: "a", refreshToken: "r", idToken: "i" } }, fence);
        await a.write({ coolDownMs: 2_000 }, fence);
      });
      const record = await open().read();
      expect(record.tokens).toEqual({ accessToken: "a", refreshToken: "r", idToken: "i" });
      expect(record.coolDownMs).toBeGreaterThan(1_500);
      expect(record.coolDownMs).toBeLessThanOrEqual(2_000);
    });
  });
}
