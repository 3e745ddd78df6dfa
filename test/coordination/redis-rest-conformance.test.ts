/**
 * The Redis coordinator over the Upstash REST protocol (`restRedis`) passes the conformance suite:
 * the same scripts, sent as JSON command arrays to a REST front over the same real redis-server the
 * other Redis tests use. Each `open()` is another coordinator on another REST connection, as
 * another edge isolate would have.
 */
import { afterAll, beforeAll, describe } from "vitest";
import { redisCoordinator, restRedis } from "../../src/redis/index.ts";
import { type RedisServer, redisUnavailable, startRedis } from "../support/redis.ts";
import { type RestFront, startRestFront } from "../support/redis-rest.ts";
import { partnerConformance, sessionConformance } from "./conformance.ts";

const skip = redisUnavailable();
const TOKEN = "conformance-rest-token_~~~???";
let redis: RedisServer;
const fronts: RestFront[] = [];
let next = 0;

beforeAll(async () => {
  if (skip) return;
  redis = await startRedis();
  for (let i = 0; i < 2; i++) fronts.push(await startRestFront(await redis.ready(redis.client()), TOKEN));
});
afterAll(async () => {
  await Promise.all(fronts.map((front) => front.close()));
  await redis?.stop();
});

describe.skipIf(skip)("Redis coordinator over REST", () => {
  const open = () =>
    redisCoordinator({
      redis: restRedis({ url: (fronts[next++ % fronts.length] as RestFront).url, token: TOKEN }),
      keyPrefix: "rest:",
    });
  partnerConformance("Redis over REST", open);
  sessionConformance("Redis over REST", (group) => {
    const share = open().session?.({ environment: "http://127.0.0.1:1", identity: group });
    if (!share) throw new Error("redisCoordinator shares no session");
    return share;
  });
});
