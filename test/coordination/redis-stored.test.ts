/**
 * What the Redis coordinator leaves in Redis, and what it trusts from there, on a real redis-server:
 * every key a script writes expires; a stored cool-down is never trusted beyond what this client
 * could have set (a record of something else, or one written before a clock stepped back).
 */
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redisCoordinator } from "../../src/redis/index.ts";
import { interactiveTurn, partnerKey } from "../support/partner-keys.ts";
import { type RedisServer, redisUnavailable, startRedis } from "../support/redis.ts";

const skip = redisUnavailable();
let redis: RedisServer;
let client: Redis;
beforeAll(async () => {
  if (skip) return;
  redis = await startRedis();
  client = await redis.ready(redis.client());
});
afterAll(async () => {
  await redis?.stop();
});

const HOUR = 3_600_000;
const request = interactiveTurn;
const key = () => partnerKey();

async function keysOf(prefix: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await client.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
    cursor = next;
    found.push(...batch);
  } while (cursor !== "0");
  return found.sort();
}

describe.skipIf(skip)("every key a script writes expires", () => {
  it("after turns, a 429, a sign-in lock, a write and a read, every key has a TTL", async () => {
    const keyPrefix = `stored-${randomUUID()}:`;
    const coordinator = redisCoordinator({ redis: client, keyPrefix });
    const partner = coordinator.partner(key());
    (await partner.turn(request)).done({ kind: "admitted" });
    const held = await partner.turn(request);
    (await partner.turn(request)).done({ kind: "rate-limited", waitMs: 5_000, retryAfter: false });
    const share = coordinator.session?.({ environment: "http://127.0.0.1:1", identity: "u@example.test" });
    if (!share) throw new Error("no session share");
    await share.withLock(async (fence) => {
      await share.write({ tokens: { accessToken: "a", refreshToken: "r" }, coolDownMs: 1_000 }, fence);
    });
    await share.read();
    await new Promise((r) => setTimeout(r, 50)); // the releases are not awaited by done()
    const keys = await keysOf(keyPrefix);
    // slots, state, procs of the partner; rec and fence of the session (the lock is released).
    expect(keys.map((k) => k.slice(k.lastIndexOf(":") + 1)).sort()).toEqual([
      "fence",
      "procs",
      "rec",
      "slots",
      "state",
    ]);
    const ttls = await Promise.all(keys.map(async (k) => [k, await client.pttl(k)] as const));
    expect(ttls.filter(([, ttl]) => !(ttl > 0))).toEqual([]);
    held.done({ kind: "admitted" });
  });
});

describe.skipIf(skip)("a stored cool-down is trusted no further than this client writes", () => {
  it("a session record whose /auth cool-down ends an hour from now reads as 60 s at most", async () => {
    const keyPrefix = `stored-${randomUUID()}:`;
    const share = redisCoordinator({ redis: client, keyPrefix }).session?.({
      environment: "http://127.0.0.1:1",
      identity: "u@example.test",
    });
    if (!share) throw new Error("no session share");
    await share.withLock(async (fence) => {
      await share.write({ tokens: { accessToken: "a" } }, fence);
    });
    const rec = (await keysOf(keyPrefix)).find((k) => k.endsWith(":rec")) as string;
    const [seconds] = (await client.time()) as [number | string, number | string];
    const stored = JSON.parse((await client.get(rec)) as string) as Record<string, unknown>;
    await client.set(rec, JSON.stringify({ ...stored, cool: Number(seconds) * 1000 + HOUR }), "PX", HOUR);
    const { coolDownMs } = await share.read();
    expect(coolDownMs).toBeGreaterThan(0);
    // 60 s: the longest cool-down the client writes (its longest Retry-After wait).
    expect(coolDownMs).toBeLessThanOrEqual(60_000);
  });

  it("a write of an hour's cool-down stores 60 s at most", async () => {
    const share = redisCoordinator({ redis: client, keyPrefix: `stored-${randomUUID()}:` }).session?.({
      environment: "http://127.0.0.1:1",
      identity: "u@example.test",
    });
    if (!share) throw new Error("no session share");
    await share.withLock(async (fence) => {
      await share.write({ coolDownMs: HOUR }, fence);
    });
    expect((await share.read()).coolDownMs).toBeLessThanOrEqual(60_000);
  });

  it("a partner state whose 429 cool-down ends an hour from now is seen as 60 s at most", async () => {
    const keyPrefix = `stored-${randomUUID()}:`;
    const partner = redisCoordinator({ redis: client, keyPrefix }).partner(key());
    (await partner.turn(request)).done({ kind: "rate-limited", waitMs: 5_000, retryAfter: true });
    await new Promise((r) => setTimeout(r, 50));
    const state = (await keysOf(keyPrefix)).find((k) => k.endsWith(":state")) as string;
    const [seconds] = (await client.time()) as [number | string, number | string];
    const stored = JSON.parse((await client.get(state)) as string) as Record<string, unknown>;
    await client.set(state, JSON.stringify({ ...stored, cool: Number(seconds) * 1000 + HOUR }), "PX", HOUR);
    (await partner.turn(request)).done({ kind: "no-response" });
    const until = partner.load().coolDownUntil ?? 0;
    expect(until - Date.now()).toBeLessThanOrEqual(60_000);
  });
});
