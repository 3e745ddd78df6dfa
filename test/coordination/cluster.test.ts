/**
 * Coordination across real processes: forked Node processes of one partner, a real redis-server and a
 * real local API. One sign-in for the group; never more than 8 calls in flight at the server; the
 * slots of a killed process free within 5 s; Redis killed mid-run fails no call.
 */
import { type ChildProcess, fork } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createAudienceClient } from "../../src/index.ts";
import { redisCoordinator } from "../../src/redis/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { interactiveTurn, partnerKey } from "../support/partner-keys.ts";
import { json } from "../support/recording-server.ts";
import { type RedisServer, redisUnavailable, startRedis } from "../support/redis.ts";

const skip = redisUnavailable();
const childScript = fileURLToPath(new URL("../support/cluster-child.ts", import.meta.url));
let redis: RedisServer;
let api: FakeApi | undefined;
const children: ChildProcess[] = [];

beforeAll(async () => {
  if (!skip) redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});
afterEach(async () => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  await api?.close();
  api = undefined;
});

/** Forks a process of the group; resolves with its first message. */
function run<T>(task: Record<string, unknown>): { child: ChildProcess; message: Promise<T> } {
  const child = fork(childScript, [JSON.stringify(task)], { execArgv: ["--import", "tsx"], stdio: "inherit" });
  children.push(child);
  const message = new Promise<T>((resolve, reject) => {
    child.once("message", (m) => resolve(m as T));
    child.once("exit", (code) => reject(new Error(`child exited (${code}) before reporting`)));
  });
  return { child, message };
}

/** Answers each call after `ms`. */
function slowly(ms: number) {
  return (_req: unknown, res: Parameters<typeof json>[0]) => {
    setTimeout(() => json(res, 200, { eid: "e" }), ms);
  };
}

describe.skipIf(skip)("a partner's processes on one Redis", () => {
  it("four processes sign in once for the group and never hold more than 8 calls in flight at the server", async () => {
    api = await startFakeApi({ signInDelayMs: 100 });
    api.route(slowly(30));
    const keyPrefix = `cluster-${randomUUID()}:`;
    const runs = Array.from({ length: 4 }, () =>
      run<{ ok: number; failed: number }>({
        mode: "calls",
        baseUrl: api?.url,
        redisUrl: redis.url,
        keyPrefix,
        calls: 20,
      }),
    );
    const results = await Promise.all(runs.map((r) => r.message));
    expect(results.map((r) => r.failed)).toEqual([0, 0, 0, 0]);
    expect(api.calls()).toHaveLength(80);
    expect(api.signIns()).toBe(1); // uncoordinated: 4
    expect(api.maxInFlight()).toBeLessThanOrEqual(8); // uncoordinated: up to 32
  }, 30_000);

  it("a killed process's slots are free again within 5 s", async () => {
    const keyPrefix = `cluster-${randomUUID()}:`;
    const key = partnerKey({ environment: "http://127.0.0.1:1/killed" });
    const holder = run<{ held: number }>({ mode: "hold", redisUrl: redis.url, keyPrefix, key, turns: 8 });
    expect(await holder.message).toEqual({ held: 8 });
    const client = await redis.ready(redis.client());
    const partner = redisCoordinator({ redis: client, keyPrefix }).partner(key);
    // While the holder lives (and renews its leases), no slot is free.
    const blocked = Promise.resolve(
      partner.turn({ signal: AbortSignal.timeout(300), lane: "interactive", deadlineAt: undefined }),
    );
    await expect(blocked).rejects.toThrow();
    holder.child.kill("SIGKILL");
    const killedAt = performance.now();
    const turn = await partner.turn({ signal: undefined, lane: "interactive", deadlineAt: undefined });
    const freedAfter = performance.now() - killedAt;
    turn.done({ kind: "admitted" });
    expect(freedAfter).toBeLessThan(5_000);
  }, 20_000);

  it("Redis killed mid-run: no call fails, calls go on at this process's share, and shared mode resumes", async () => {
    api = await startFakeApi();
    api.route(slowly(10));
    const keyPrefix = `cluster-${randomUUID()}:`;
    let unavailable = 0;
    let restored = 0;
    const coordinator = redisCoordinator({
      redis: await redis.ready(redis.client()),
      keyPrefix,
      onUnavailable: () => {
        unavailable += 1;
      },
      onRestored: () => {
        restored += 1;
      },
    });
    const client = createAudienceClient({
      baseUrl: api.url,
      credentials: { username: "u@example.test", password: "pw-secret-value" },
      coordinator,
    });
    const call = async (i: number) => {
      const { response } = await client.GET("/events/{eid}", { params: { path: { eid: `e${i}` } } });
      return response.status;
    };
    expect(await Promise.all([0, 1, 2, 3].map(call))).toEqual([200, 200, 200, 200]);
    await redis.kill();
    const during = await Promise.all(Array.from({ length: 20 }, (_, i) => call(i)));
    expect(during.every((s) => s === 200)).toBe(true);
    expect(unavailable).toBeGreaterThan(0);
    await redis.restart();
    const deadline = Date.now() + 8_000;
    while (restored === 0 && Date.now() < deadline) {
      await call(99);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(restored).toBeGreaterThan(0);
    expect(await Promise.all([0, 1, 2, 3].map(call))).toEqual([200, 200, 200, 200]);
    expect(client.rateState().inFlight).toBe(0);
  }, 30_000);

  const clientsOf = async (n: number, baseUrl: string) => {
    const keyPrefix = `cluster-${randomUUID()}:`;
    const clients = [];
    for (let i = 0; i < n; i++) {
      const coordinator = redisCoordinator({ redis: await redis.ready(redis.client()), keyPrefix });
      clients.push(
        createAudienceClient({
          baseUrl,
          credentials: { username: "u@example.test", password: "pw-secret-value" },
          coordinator,
        }),
      );
    }
    return clients;
  };

  it("a 401 adopts the newer token another process stored before refreshing: one refresh for the group", async () => {
    const revoked = new Set<string>();
    api = await startFakeApi();
    const server = api;
    server.route((req, res) => {
      const token = String(req.headers.authorization ?? "").replace(/^Bearer /, "");
      if (revoked.has(token)) return json(res, 401, { message: "expired" });
      json(res, 200, { eid: "e" });
    });
    const [a, b] = await clientsOf(2, server.url);
    const get = (c: NonNullable<typeof a>) => c.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    expect((await get(a as NonNullable<typeof a>)).response.status).toBe(200);
    expect((await get(b as NonNullable<typeof b>)).response.status).toBe(200);
    expect(server.signIns()).toBe(1);
    revoked.add(server.tokens().AccessToken);
    expect((await get(a as NonNullable<typeof a>)).response.status).toBe(200);
    expect((await get(b as NonNullable<typeof b>)).response.status).toBe(200);
    expect(server.refreshes()).toBe(1); // each process alone: 2
  }, 20_000);

  it("short-lived tokens: the group refreshes once per token, not once per process", async () => {
    api = await startFakeApi({ expSeconds: () => Math.floor(Date.now() / 1000) + 4 });
    const server = api;
    server.route(slowly(5));
    const clients = await clientsOf(3, server.url);
    const end = Date.now() + 5_000;
    await Promise.all(
      clients.map(async (c) => {
        while (Date.now() < end) {
          const { response } = await c.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
          expect(response.status).toBe(200);
          await new Promise((r) => setTimeout(r, 50));
        }
      }),
    );
    expect(server.signIns()).toBe(1);
    // 4 s tokens are renewed 2 s before they expire: about 2-3 refreshes in 5 s for the group
    // (each process alone: 3 × as many).
    expect(server.refreshes()).toBeGreaterThanOrEqual(1);
    expect(server.refreshes()).toBeLessThanOrEqual(4);
  }, 20_000);

  it("failClosed: while Redis is away calls fail with a NetworkError, sending nothing; they go through again once it is back", async () => {
    api = await startFakeApi();
    const server = api;
    server.route(slowly(5));
    const coordinator = redisCoordinator({
      redis: await redis.ready(redis.client()),
      keyPrefix: `cluster-${randomUUID()}:`,
      failClosed: true,
    });
    const client = createAudienceClient({
      baseUrl: server.url,
      credentials: { username: "u@example.test", password: "pw-secret-value" },
      coordinator,
      retry: { maxAttempts: 1 },
    });
    const get = () => client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    expect((await get()).response.status).toBe(200);
    const before = server.calls().length;
    await redis.kill();
    await expect(get()).rejects.toMatchObject({ name: "NetworkError" });
    expect(server.calls().length).toBe(before);
    await redis.restart();
    const deadline = Date.now() + 5_000;
    let status = 0;
    while (status !== 200 && Date.now() < deadline) {
      status = await get().then(
        (r) => r.response.status,
        () => 0,
      );
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
  }, 20_000);

  it("calls queued at the fair share while Redis was away move back to the shared state when it answers again", async () => {
    api = await startFakeApi();
    const server = api;
    server.route(slowly(400));
    let restored = false;
    const coordinator = redisCoordinator({
      redis: await redis.ready(redis.client()),
      keyPrefix: `cluster-${randomUUID()}:`,
      onRestored: () => {
        restored = true;
      },
    });
    const client = createAudienceClient({
      baseUrl: server.url,
      credentials: { username: "u@example.test", password: "pw-secret-value" },
      coordinator,
    });
    const get = (i: number) => client.GET("/events/{eid}", { params: { path: { eid: `e${i}` } } });
    expect((await get(0)).response.status).toBe(200);
    await redis.kill();
    const calls = Array.from({ length: 40 }, (_, i) => get(i)); // 8 at a time at the fair share: about 2 s
    await new Promise((r) => setTimeout(r, 100));
    await redis.restart();
    const statuses = (await Promise.all(calls)).map((r) => r.response.status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(restored).toBe(true);
    // The restarted server saw the scripts of the calls that moved back (2 a call); before, none.
    const info = String(await (await redis.ready(redis.client())).info("commandstats"));
    const scripts = [...info.matchAll(/cmdstat_(?:evalsha|eval):calls=(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
    expect(scripts).toBeGreaterThanOrEqual(10);
  }, 20_000);

  it("a Redis restarted empty in a quiet period starts from what the processes know: the cap stays 4", async () => {
    const client = await redis.ready(redis.client());
    const key = partnerKey();
    const partner = redisCoordinator({ redis: client, keyPrefix: `cluster-${randomUUID()}:` }).partner(key);
    const request = interactiveTurn;
    (await partner.turn(request)).done({ kind: "rate-limited", waitMs: 5_000, retryAfter: true });
    await new Promise((r) => setTimeout(r, 50));
    await redis.kill();
    await redis.restart();
    if (client.status !== "ready") await new Promise((resolve) => client.once("ready", resolve));
    // A turn during the reconnection may run on the fair share; then the shared state answers.
    const deadline = Date.now() + 5_000;
    while ((partner as unknown as { degraded: boolean }).degraded && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    const held = [];
    for (let i = 0; i < 4; i++) held.push(await partner.turn(request));
    const fifth = Promise.resolve(partner.turn({ ...request, signal: AbortSignal.timeout(400) }));
    await expect(fifth).rejects.toThrow(); // before: the empty Redis gave 8 slots at once
    for (const t of held) t.done({ kind: "admitted" });
  }, 20_000);
});
