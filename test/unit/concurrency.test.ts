import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { createAudienceClient } from "../../src/index.ts";
import { ConcurrencyLimiter } from "../../src/transport/limiter.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json } from "../support/recording-server.ts";

let api: FakeApi;
afterEach(() => api?.close());
const credentials = { username: "ops@acme.test", password: "pw-concurrency" };

describe("adaptive concurrency (Section 8.4)", () => {
  it("the server never sees more than 8 in flight, then at most 4 after a 429", async () => {
    api = await startFakeApi();
    let rateLimitNext = false;
    // Answers are held until `cap` requests are waiting (then 20 ms more, for any request past the
    // cap to arrive), or 250 ms: a loaded machine cannot keep the client under its cap by answering
    // the first calls before the last are sent, and a client over it is still seen.
    let cap = 8;
    let held = new Set<() => void>();
    const releaseAll = () => {
      const now = held;
      held = new Set();
      for (const answer of now) answer();
    };
    api.route((_req, res) => {
      if (rateLimitNext) {
        rateLimitNext = false;
        return json(res, 429, {});
      }
      const answer = () => {
        held.delete(answer);
        json(res, 200, {});
      };
      held.add(answer);
      setTimeout(() => held.has(answer) && answer(), 250);
      if (held.size >= cap) setTimeout(releaseAll, 20);
    });
    const client = createAudienceClient({ baseUrl: api.url, credentials, retry: { rateLimitDelayMs: [1, 2] } });
    await client.GET("/events/", {}); // sign in first
    api.resetStats();
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => client.GET("/events/{eid}", { params: { path: { eid: `a${i}` } } })),
    );
    expect(api.maxInFlight()).toBe(8);

    rateLimitNext = true;
    await client.GET("/events/{eid}", { params: { path: { eid: "trigger" } } });
    expect(client.concurrency().limit).toBe(4);
    cap = 4;
    api.resetStats();
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => client.GET("/events/{eid}", { params: { path: { eid: `b${i}` } } })),
    );
    expect(api.maxInFlight()).toBe(4);
  });

  it("returns to 8 after a quiet period without 429s", async () => {
    let now = 0;
    const limiter = new ConcurrencyLimiter({ max: 8, reduced: 4, quietMs: 60_000, now: () => now });
    limiter.rateLimited();
    expect(limiter.limit).toBe(4);
    now = 59_999;
    expect(limiter.limit).toBe(4);
    now = 60_000;
    expect(limiter.limit).toBe(8);
  });

  it("a queued call honours its AbortSignal and leaves the queue", async () => {
    const limiter = new ConcurrencyLimiter({ max: 1, reduced: 1, quietMs: 0 });
    const release = await limiter.acquire();
    const controller = new AbortController();
    const queued = limiter.acquire(controller.signal);
    expect(limiter.queued).toBe(1);
    controller.abort(new Error("stop"));
    await expect(queued).rejects.toThrow("stop");
    expect(limiter.queued).toBe(0);
    release();
    expect(limiter.active).toBe(0);
  });

  it("property: the cap holds under any completion order", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 30 }),
        async (s, cap, tasks) => {
          const limiter = new ConcurrencyLimiter({ max: cap, reduced: cap, quietMs: 0 });
          let active = 0;
          let peak = 0;
          const run = async (i: number) => {
            const release = await limiter.acquire();
            active += 1;
            peak = Math.max(peak, active);
            await s.schedule(Promise.resolve(), `task ${i}`);
            active -= 1;
            release();
          };
          const all = Promise.all(Array.from({ length: tasks }, (_, i) => run(i)));
          await s.waitFor(all);
          return peak <= cap && peak === Math.min(cap, tasks) && limiter.active === 0;
        },
      ),
      { numRuns: 100 },
    );
  });
});
