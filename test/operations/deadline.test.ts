/**
 * One deadline across a helper's calls. A wait (Retry-After, backoff, a poll's
 * interval, the pace) that would end after the deadline fails at once with its typed error
 * carrying `retryAt`, instead of sleeping into the deadline.
 */
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import {
  type AudienceError,
  createAudienceClient,
  listEvents,
  poll,
  RateLimitError,
  ServerError,
  TimeoutError,
} from "../../src/index.ts";
import { monotonicNow } from "../../src/internal/clock.ts";
import { ConcurrencyLimiter } from "../../src/transport/limiter.ts";
import { limiterPolicy } from "../../src/transport/limiter-policy.ts";
import { RatePacer } from "../../src/transport/pacer.ts";
import { LocalPartner } from "../../src/transport/partner-state.ts";
import type { CallContext } from "../../src/transport/policy.ts";
import { json, type RecordingServer, startRecordingServer } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

let server: RecordingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const sessionOf = () => {
  const t = makeTokens();
  return { accessToken: t.AccessToken, refreshToken: t.RefreshToken, idToken: t.IdToken };
};

async function failure(work: () => Promise<unknown>): Promise<{ error: AudienceError; ms: number }> {
  const started = performance.now();
  try {
    await work();
  } catch (error) {
    return { error: error as AudienceError, ms: performance.now() - started };
  }
  throw new Error("expected a failure");
}

async function drain(iterator: AsyncIterable<unknown>): Promise<unknown[]> {
  const items: unknown[] = [];
  for await (const item of iterator) items.push(item);
  return items;
}

describe("deadlineMs of a list helper", () => {
  it("a Retry-After past the deadline fails at once: RateLimitError with retryAt", async () => {
    server = await startRecordingServer((req, res) =>
      req.query.get("page") === "1"
        ? json(res, 200, { items: [{ id: "a" }, { id: "b" }] })
        : json(res, 429, { message: "slow down" }, { "retry-after": "5" }),
    );
    const client = createAudienceClient({ baseUrl: server.url, partnerId: "acme", session: sessionOf() });
    const { error, ms } = await failure(() => drain(listEvents(client, { limit: 2, deadlineMs: 2000 })));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(ms).toBeLessThan(1000); // did not sleep 5 s, nor into the 2 s deadline
    expect(error.retryAt).toBeGreaterThan(Date.now() + 3500);
    expect(error.retryAt).toBeLessThanOrEqual(Date.now() + 5000);
    expect(error.supportReport()).toMatch(/retry at: {5}20\d\d-.*past the deadline/);
    expect(server.requests.filter((r) => r.query.get("page") === "2")).toHaveLength(1);
  });

  it("a backoff past the deadline fails at once: ServerError with retryAt", async () => {
    server = await startRecordingServer((_req, res) => json(res, 503, { message: "busy" }));
    const client = createAudienceClient({
      baseUrl: server.url,
      partnerId: "acme",
      session: sessionOf(),
      retry: { baseDelayMs: 2000, maxDelayMs: 2000 },
    });
    const { error, ms } = await failure(() => drain(listEvents(client, { deadlineMs: 1000 })));
    expect(error).toBeInstanceOf(ServerError);
    expect(ms).toBeLessThan(800);
    expect(error.retryAt).toBeGreaterThan(Date.now());
    expect(server.requests).toHaveLength(1);
  });

  it("refuses a bad deadlineMs by name, nothing sent", async () => {
    server = await startRecordingServer((_req, res) => json(res, 200, { items: [] }));
    const client = createAudienceClient({ baseUrl: server.url, partnerId: "acme", session: sessionOf() });
    await expect(drain(listEvents(client, { deadlineMs: -1 }))).rejects.toThrow(/deadlineMs/);
    expect(server.requests).toHaveLength(0);
  });
});

describe("deadlineMs of a poll", () => {
  it("an interval that would end past the deadline is not slept through", async () => {
    let fetches = 0;
    const { error, ms } = await failure(() =>
      poll({
        fetchStatus: async () => {
          fetches += 1;
          return "PENDING";
        },
        isDone: (s) => s === "DONE",
        intervalMs: 150,
        backoff: 2, // waits 150, 300, 600: the third would end at ~1050 ms, after the deadline
        deadlineMs: 1000,
      }),
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect(fetches).toBe(3);
    expect(ms).toBeLessThan(950); // failed at ~450 ms, not at the 1 000 ms deadline
    expect(error.retryAt).toBeGreaterThan(Date.now() + 400);
  });
});

describe("deadlineMs of a flush", () => {
  it("rejects with a TimeoutError when the save outlasts it; the edit stays pending", async () => {
    const held: ServerResponse[] = [];
    server = await startRecordingServer((_req, res) => void held.push(res));
    const client = createAudienceClient({ baseUrl: server.url, partnerId: "acme", session: sessionOf() });
    const setup = client.setupProcess("evt-1");
    void setup.autosave({ name: "draft" } as never).catch(() => undefined);
    const { error, ms } = await failure(() => setup.flush({ deadlineMs: 200 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(ms).toBeLessThan(1000);
    for (const res of held) json(res, 200, {});
  });
});

describe("the pace past the deadline", () => {
  it("a call whose turn would come after its deadline fails at once with retryAt", async () => {
    let now = 0;
    const pacer = new RatePacer({ now: () => now, setTimer: () => () => undefined });
    // Engage pacing: a burst admitted, then most calls refused.
    for (let i = 0; i < 10; i++) {
      now += 5;
      pacer.admitted();
    }
    now += 10;
    for (let i = 0; i < 5; i++) pacer.throttled(0);
    expect(pacer.rate).toBeGreaterThan(0);
    const limiter = new ConcurrencyLimiter({ max: 8, reduced: 4, quietMs: 0 });
    const policy = limiterPolicy({ partnerFor: () => new LocalPartner(limiter, pacer) });
    // Several calls already wait for their turn; a call with 50 ms left cannot be sent in time.
    for (let i = 0; i < 5; i++) void Promise.resolve(pacer.take()).catch(() => undefined);
    expect(pacer.waitEstimateMs()).toBeGreaterThan(50);
    const ctx = { partnerId: "p1", signal: undefined, deadlineAt: monotonicNow() + 50 } as unknown as CallContext;
    let sent = false;
    await expect(
      policy(new Request("http://127.0.0.1/x"), ctx, async () => {
        sent = true;
        return { response: new Response(null) };
      }),
    ).rejects.toMatchObject({ kind: "deadline" });
    expect(sent).toBe(false);
    expect(ctx.retryAt).toBeGreaterThan(Date.now() + 50);
    expect(limiter.active).toBe(0);
  });
});
