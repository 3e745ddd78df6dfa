/**
 * The Redis coordinator passes the conformance suite against a real
 * redis-server; each `open()` is another coordinator on another connection, as another process.
 */
import type { Redis } from "ioredis";
import { createClient, type RedisClientType } from "redis";
import { afterAll, beforeAll, describe } from "vitest";
import { redisCoordinator } from "../../src/redis/index.ts";
import { type RedisServer, redisUnavailable, startRedis } from "../support/redis.ts";
import { partnerConformance, sessionConformance } from "./conformance.ts";

const skip = redisUnavailable();
let redis: RedisServer;
/** Connected clients: each `open()` takes the next, as another process would have its own. */
const clients: Redis[] = [];
let next = 0;

beforeAll(async () => {
  if (skip) return;
  redis = await startRedis();
  for (let i = 0; i < 4; i++) clients.push(await redis.ready(redis.client()));
});
afterAll(async () => {
  await redis?.stop();
});

describe.skipIf(skip)("Redis coordinator", () => {
  const open = () => redisCoordinator({ redis: clients[next++ % clients.length] as Redis, keyPrefix: "conformance:" });
  partnerConformance("Redis", open);
  sessionConformance("Redis", (group) => {
    const share = open().session?.({ environment: "http://127.0.0.1:1", identity: group });
    if (!share) throw new Error("redisCoordinator shares no session");
    return share;
  });
});

describe.skipIf(skip)("Redis coordinator over node-redis", () => {
  const clients: RedisClientType[] = [];
  let next = 0;
  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const client = createClient({ url: redis.url, disableOfflineQueue: true }) as RedisClientType;
      client.on("error", () => undefined);
      await client.connect();
      clients.push(client);
    }
  });
  afterAll(() => {
    for (const client of clients) client.destroy();
  });
  const open = () =>
    redisCoordinator({ redis: clients[next++ % clients.length] as RedisClientType, keyPrefix: "node-redis:" });
  partnerConformance("node-redis", open);
});
