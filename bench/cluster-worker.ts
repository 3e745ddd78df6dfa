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
import { type AudienceClientOptions, createAudienceClient, readBenchmark } from "../src/index.ts";

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

/** The slice of an ioredis client this worker touches. */
interface RedisConnection {
  on(event: "error", listener: (error: Error) => void): unknown;
  once(event: "ready", listener: () => void): unknown;
  disconnect(): void;
}
interface RedisEntry {
  redisCoordinator(options: { redis: unknown; keyPrefix: string }): unknown;
}

// The Redis entry (src/redis/, issue 13) and ioredis in package.json come with the main engineer's
// change; until a checkout has both, their specifiers are values, so that tsc and knip pass without
// them and the Redis variant reports itself unavailable instead. CLUSTER_REDIS_ENTRY names another
// module with the same export (a build of the entry, say).
const REDIS_ENTRY = process.env.CLUSTER_REDIS_ENTRY
  ? pathToFileURL(process.env.CLUSTER_REDIS_ENTRY).href
  : new URL("../src/redis/index.ts", import.meta.url).href;
const IOREDIS = "ioredis";

const config = JSON.parse(process.argv[2] ?? "{}") as WorkerConfig;
const send = (message: WorkerMessage): Promise<void> =>
  new Promise((resolve) => {
    process.send?.(message, () => resolve());
  });
let redisErrors = 0;

async function withRedis(
  options: NonNullable<WorkerConfig["redis"]>,
): Promise<{ coordinator: unknown; redis: RedisConnection } | string> {
  let entry: RedisEntry;
  try {
    entry = (await import(REDIS_ENTRY)) as RedisEntry;
  } catch (error) {
    const why = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
    return `redis coordinator not available (${why.replace(/'[^']*\/(src\/[^']*)'.*$/, "$1")})`;
  }
  const { Redis } = (await import(IOREDIS)) as {
    Redis: new (url: string, options: object) => RedisConnection;
  };
  // As the README lines have it: commands fail fast, no offline queue.
  const redis = new Redis(options.url, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  redis.on("error", () => {
    redisErrors += 1;
  });
  await new Promise<void>((resolve) => redis.once("ready", resolve));
  return { coordinator: entry.redisCoordinator({ redis, keyPrefix: options.keyPrefix }), redis };
}

async function main(): Promise<void> {
  let redis: RedisConnection | undefined;
  let coordinator: unknown;
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
  const options = {
    baseUrl: config.baseUrl,
    credentials: { username: config.partner, password: "bench-password" },
    partnerId: config.partner,
    ...(coordinator === undefined ? {} : { coordinator }),
  } as AudienceClientOptions;
  const client = createAudienceClient(options);
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
