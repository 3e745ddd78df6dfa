/**
 * A process of a partner's group, forked by test/coordination/cluster.test.ts.
 * argv[2] is a JSON task:
 * - `{ mode: "calls", baseUrl, redisUrl, keyPrefix, calls, spreadMs? }`: a client with the Redis
 *   coordinator (the file coordinator of /node when `directory` is given instead of `redisUrl`)
 *   makes `calls` described calls at once (or spread over `spreadMs`) and reports `{ ok, failed }`;
 * - `{ mode: "hold", redisUrl, keyPrefix, key, turns }`: takes `turns` of the partner's slots and
 *   reports `{ held }`, then holds them until it is killed.
 */
import { Redis } from "ioredis";
import type { PartnerKey } from "../../src/coordination/coordinator.ts";
import { createAudienceClient } from "../../src/index.ts";
import { fileCoordinator } from "../../src/node/index.ts";
import { redisCoordinator } from "../../src/redis/index.ts";

interface CallsTask {
  readonly mode: "calls";
  readonly baseUrl: string;
  readonly redisUrl?: string;
  readonly directory?: string;
  readonly keyPrefix: string;
  readonly calls: number;
  readonly spreadMs?: number;
}
interface HoldTask {
  readonly mode: "hold";
  readonly redisUrl: string;
  readonly keyPrefix: string;
  readonly key: PartnerKey;
  readonly turns: number;
}

const task = JSON.parse(process.argv[2] as string) as CallsTask | HoldTask;
const redis = task.redisUrl
  ? new Redis(task.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false })
  : undefined;
redis?.on("error", () => undefined);
if (redis) await new Promise((resolve) => redis.once("ready", resolve));
const coordinator = redis
  ? redisCoordinator({ redis, keyPrefix: task.keyPrefix })
  : fileCoordinator({ directory: (task as CallsTask).directory as string });

if (task.mode === "hold") {
  const partner = coordinator.partner(task.key);
  for (let i = 0; i < task.turns; i++)
    await partner.turn({ signal: undefined, lane: "interactive", deadlineAt: undefined });
  process.send?.({ held: task.turns });
  setInterval(() => undefined, 60_000);
} else {
  const client = createAudienceClient({
    baseUrl: task.baseUrl,
    credentials: { username: "cluster@example.test", password: "cluster-password" },
    coordinator,
    retry: { rateLimitDelayMs: [50, 100], baseDelayMs: 20 },
  });
  const results = await Promise.allSettled(
    Array.from({ length: task.calls }, async (_, i) => {
      if (task.spreadMs) await new Promise((r) => setTimeout(r, (task.spreadMs as number) * (i / task.calls)));
      const { response } = await client.GET("/events/{eid}", { params: { path: { eid: `e${i}` } } });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
    }),
  );
  const failed = results.filter((r) => r.status === "rejected").length;
  process.send?.({ ok: task.calls - failed, failed });
  redis?.disconnect();
  process.exit(0);
}
