/**
 * `close()` of the Redis coordinator: the end of a process's part, for scripts that must exit
 * (examples/nightly-sync.ts). It takes the process off the partner's live processes at once, so
 * the others' fair share no longer counts it, and it leaves the caller's connection open (the
 * coordinator never opens or closes one).
 */
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PartnerKey, TurnRequest } from "../../src/coordination/coordinator.ts";
import { redisCoordinator } from "../../src/redis/index.ts";
import { type RedisServer, redisUnavailable, startRedis } from "../support/redis.ts";

const skip = redisUnavailable();
let redis: RedisServer;
let admin: Redis;
beforeAll(async () => {
  if (skip) return;
  redis = await startRedis();
  admin = await redis.ready(redis.client());
});
afterAll(async () => {
  await redis?.stop();
});

const request: TurnRequest = { signal: undefined, lane: "interactive", deadlineAt: undefined };
const key: PartnerKey = {
  environment: "http://127.0.0.1:1/api/v3",
  partnerId: "partner-a",
  maxConcurrency: 8,
  reducedConcurrency: 4,
  quietMs: 60_000,
  pacing: true,
};

describe.skipIf(skip)("redisCoordinator close()", () => {
  it("takes the process off the partner's live processes and leaves the connection open", async () => {
    const keyPrefix = `close-${randomUUID()}:`;
    const one = redisCoordinator({ redis: await redis.ready(redis.client()), keyPrefix });
    const two = redisCoordinator({ redis: await redis.ready(redis.client()), keyPrefix });
    for (const coordinator of [one, two]) {
      const turn = await coordinator.partner(key).turn(request);
      turn.done({ kind: "admitted" });
    }
    const [procs] = await admin.keys(`${keyPrefix}*procs`);
    expect(await admin.zcard(procs as string)).toBe(2);
    await one.close();
    expect(await admin.zcard(procs as string)).toBe(1);
    expect(await admin.ping()).toBe("PONG");
    await two.close();
    expect(await admin.exists(procs as string)).toBe(0);
  });
});
