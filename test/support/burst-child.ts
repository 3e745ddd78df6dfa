/**
 * A process of a partner's group that sends bursts when told, forked by
 * test/coordination/cluster-limits.test.ts. argv[2] is a JSON task
 * `{ baseUrl, redisUrl, keyPrefix, timing? }`. It reports `{ ready: true }` once its Redis client is
 * connected; each message `{ burst: n }` makes it send n described calls at once and report
 * `{ ok, failed, degraded }` (degraded: Redis was away at some point); `{ exit: true }` ends it.
 */
import { Redis } from "ioredis";
import { createAudienceClient } from "../../src/index.ts";
import { type RedisTiming, redisCoordinator } from "../../src/redis/index.ts";

interface Task {
  readonly baseUrl: string;
  readonly redisUrl: string;
  readonly keyPrefix: string;
  readonly timing?: RedisTiming;
}

const task = JSON.parse(process.argv[2] as string) as Task;
const redis = new Redis(task.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
redis.on("error", () => undefined);
await new Promise((resolve) => redis.once("ready", resolve));
let degraded = false;
const coordinator = redisCoordinator({
  redis,
  keyPrefix: task.keyPrefix,
  ...(task.timing ? { timing: task.timing } : {}),
  onUnavailable: () => {
    degraded = true;
  },
});
const client = createAudienceClient({
  baseUrl: task.baseUrl,
  credentials: { username: "burst@example.test", password: "burst-password" },
  coordinator,
  retry: { rateLimitDelayMs: [50, 100], baseDelayMs: 20 },
});

process.on("message", async (message: { burst?: number; exit?: boolean }) => {
  if (message.exit) {
    redis.disconnect();
    process.exit(0);
  }
  const n = message.burst ?? 0;
  const results = await Promise.allSettled(
    Array.from({ length: n }, async (_, i) => {
      const { response } = await client.GET("/events/{eid}", { params: { path: { eid: `e${i}` } } });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
    }),
  );
  const failed = results.filter((r) => r.status === "rejected").length;
  process.send?.({ ok: n - failed, failed, degraded });
});
process.send?.({ ready: true });
