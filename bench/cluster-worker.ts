/**
 * One process of the cluster benchmark (bench/cluster.ts forks N of them, through tsx): a real
 * `createAudienceClient` with the group's credentials and partner, uncoordinated (today's client)
 * or with `redisCoordinator` on its own ioredis connection. It reads its share of the event
 * benchmarks when the parent says go, and reports its own completion time and failed calls.
 *
 * IPC, worker → parent: `ready` (client made, Redis connected), `unavailable` (no Redis
 * coordinator in this checkout), `done` (then it exits). Parent → worker: `go`.
 */
import { pathToFileURL } from "node:url";
import { Redis } from "ioredis";
import type { Coordinator } from "../src/coordination/coordinator.ts";
import { createAudienceClient, readBenchmark } from "../src/index.ts";

export interface WorkerConfig {
  readonly baseUrl: string;
  readonly partner: string;
  /** This process reads `evt-(first+1)` … `evt-(first+calls)`. */
  readonly first: number;
  readonly calls: number;
  /** All calls started at once (as the goodput bench does), or one after the other. */
  readonly sequential: boolean;
  /** One call before `ready` (signs in), so that the measured calls find a session. */
  readonly warmUp: boolean;
  /** Set for the Redis variant. */
  readonly redis?: { readonly url: string; readonly keyPrefix: string };
}

export type WorkerMessage =
  | { readonly type: "ready" }
  | { readonly type: "unavailable"; readonly why: string }
  | {
      readonly type: "done";
      readonly ms: number;
      readonly failed: number;
      /** Up to three distinct failures, `name: message`. */
      readonly errors: readonly string[];
      /** `error` events of the worker's Redis connection (it was killed, or refused a command). */
      readonly redisErrors: number;
    };

/**
 * CLUSTER_REDIS_ENTRY names another module with the same `redisCoordinator` export (a build of
 * the entry, say); the default is the source entry.
 */
async function redisEntry(): Promise<typeof import("../src/redis/index.ts")> {
  const other = process.env.CLUSTER_REDIS_ENTRY;
  if (other) return (await import(pathToFileURL(other).href)) as typeof import("../src/redis/index.ts");
  return import("../src/redis/index.ts");
}

const config = JSON.parse(process.argv[2] ?? "{}") as WorkerConfig;
const send = (message: WorkerMessage): Promise<void> =>
  new Promise((resolve) => {
    process.send?.(message, () => resolve());
  });
let redisErrors = 0;

async function withRedis(
  options: NonNullable<WorkerConfig["redis"]>,
): Promise<{ coordinator: Coordinator; redis: Redis } | string> {
  let entry: Awaited<ReturnType<typeof redisEntry>>;
  try {
    entry = await redisEntry();
  } catch (error) {
    const why = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
    return `redis coordinator not available (${why.replace(/'[^']*\/(src\/[^']*)'.*$/, "$1")})`;
  }
  // As docs/MANY-PROCESSES.md has it: commands fail fast, no offline queue.
  const redis = new Redis(options.url, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  redis.on("error", () => {
    redisErrors += 1;
  });
  await new Promise<void>((resolve) => redis.once("ready", resolve));
  return { coordinator: entry.redisCoordinator({ redis, keyPrefix: options.keyPrefix }), redis };
}

async function main(): Promise<void> {
  let redis: Redis | undefined;
  let coordinator: Coordinator | undefined;
  if (config.redis) {
    const made = await withRedis(config.redis);
    if (typeof made === "string") {
      await send({ type: "unavailable", why: made });
      process.exit(0);
    }
    redis = made.redis;
    coordinator = made.coordinator;
  }
  // The password is the bench server's; the user name is the partner id, so that the server
  // counts the group's sign-ins and refreshes under the partner.
  const client = createAudienceClient({
    baseUrl: config.baseUrl,
    credentials: { username: config.partner, password: "bench-password" },
    partnerId: config.partner,
    ...(coordinator ? { coordinator } : {}),
  });
  const eids = Array.from({ length: config.calls }, (_, i) => `evt-${config.first + i + 1}`);
  const read = (eid: string) => readBenchmark(client, eid, { type: "capacity" });
  if (config.warmUp) await read("evt-0");

  process.once("message", async (message: { type?: string }) => {
    if (message?.type !== "go") return;
    const started = performance.now();
    const failures: unknown[] = [];
    if (config.sequential) {
      for (const eid of eids) await read(eid).catch((error: unknown) => failures.push(error));
    } else {
      const settled = await Promise.allSettled(eids.map(read));
      for (const s of settled) if (s.status === "rejected") failures.push(s.reason);
    }
    const ms = performance.now() - started;
    const errors = [
      ...new Set(
        failures.map((e) =>
          // Without the request id, so that one kind of failure reads once.
          (e instanceof Error ? `${e.name}: ${e.message}` : String(e))
            .replace(/ \[request id [^\]]*\]/, "")
            .slice(0, 160),
        ),
      ),
    ].slice(0, 3);
    await send({ type: "done", ms, failed: failures.length, errors, redisErrors });
    redis?.disconnect();
    process.exit(0);
  });
  await send({ type: "ready" });
}

process.on("disconnect", () => process.exit(0));
await main();
