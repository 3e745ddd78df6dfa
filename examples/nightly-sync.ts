/**
 * Recipe: the nightly sync. Every event of the partner and its capacity benchmark, one CSV row an
 * event. Run it in as many processes as you like: through Redis they share the partner's one
 * session and one rate budget (Sections 5, 8.4), as the API's limits are the partner's, not a
 * process's.
 *
 * ```sh
 * REDIS_URL=redis://127.0.0.1:6379 AI_BASE_URL=https://<host>/api/v3 AI_USERNAME=… AI_PASSWORD=… \
 *   npx tsx examples/nightly-sync.ts > events.csv
 * ```
 *
 * Its lifetime is the part scripts get wrong: the Redis connection is yours (the coordinator never
 * opens or closes one), so the sync listens for its `error` events and quits it when done, and the
 * coordinator's `close()` gives back what the process still holds. Then the process exits by itself.
 * Tested by test/examples/recipes.test.ts against `startMockApi` and a real redis-server.
 */
import { pathToFileURL } from "node:url";
import { createAudienceClient, isAudienceError, listEvents, readBenchmark } from "@audience-intelligence/client";
import { redisCoordinator } from "@audience-intelligence/client/redis";
import { Redis } from "ioredis";

export interface NightlySyncOptions {
  readonly baseUrl: string;
  readonly credentials: { readonly username: string; readonly password: string };
  /** Only when the sign-in's IdToken names several partners (Section 5.3). */
  readonly partnerId?: string;
  readonly redisUrl: string;
  /** Benchmarks read at once by this process: a night job leaves most of the partner's 8 to people. */
  readonly concurrency?: number;
  /** Where the sync says what went wrong without stopping (default: stderr). */
  readonly warn?: (line: string) => void;
}

export interface NightlySyncResult {
  readonly csv: string;
  readonly events: number;
  /** Events whose benchmark could not be read (the row says why). */
  readonly failed: number;
}

export async function nightlySync(options: NightlySyncOptions): Promise<NightlySyncResult> {
  const warn = options.warn ?? ((line: string) => process.stderr.write(`${line}\n`));
  // No offline queue: while Redis is down, a command fails at once and the client goes on with this
  // process's fair share of the partner's budget instead of waiting (docs/MANY-PROCESSES.md).
  const redis = new Redis(options.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
  let redisDown = false;
  redis.on("error", (error: Error) => {
    if (!redisDown) warn(`nightly sync: Redis unavailable (${error.message}); going on with this process's share`);
    redisDown = true;
  });
  redis.on("ready", () => {
    redisDown = false;
  });
  const coordinator = redisCoordinator({ redis });
  try {
    await redis.connect().catch(() => undefined); // a Redis that is down is reported by the listener
    const client = createAudienceClient({
      baseUrl: options.baseUrl,
      credentials: options.credentials,
      ...(options.partnerId ? { partnerId: options.partnerId } : {}),
      coordinator,
    });
    const events: string[] = [];
    for await (const event of listEvents(client, { priority: "low" })) events.push(event.id);
    const rows = await mapLimited(events, options.concurrency ?? 2, async (eid) => {
      try {
        const { unit, fractions } = await readBenchmark(client, eid, { type: "capacity" });
        return [eid, unit ?? "", fractions.at(-1)?.toFixed(4) ?? "", ""];
      } catch (error) {
        if (!isAudienceError(error)) throw error;
        return [eid, "", "", `${error.name}${error.requestId ? ` (request ${error.requestId})` : ""}`];
      }
    });
    const failed = rows.filter((row) => row[3] !== "").length;
    return { csv: toCsv([["event", "unit", "latest_fraction", "error"], ...rows]), events: events.length, failed };
  } finally {
    await coordinator.close();
    redis.disconnect();
  }
}

/** `items` through `work`, at most `limit` at a time, results in the order of `items`. */
async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * RFC 4180 CSV. What the server sent is data: a cell that a spreadsheet would run as a formula
 * (`=`, `+`, `-`, `@`, tab, carriage return first) is prefixed with `'`.
 */
export function toCsv(rows: readonly (readonly string[])[]): string {
  const cell = (value: string): string => {
    const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
    return /[",\r\n']/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
  };
  return `${rows.map((row) => row.map(cell).join(",")).join("\r\n")}\r\n`;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    process.stderr.write(`nightly sync: set ${name} (see the header of examples/nightly-sync.ts)\n`);
    process.exit(2);
  }
  return value;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = await nightlySync({
    baseUrl: required("AI_BASE_URL"),
    credentials: { username: required("AI_USERNAME"), password: required("AI_PASSWORD") },
    ...(process.env.AI_PARTNER_ID ? { partnerId: process.env.AI_PARTNER_ID } : {}),
    redisUrl: required("REDIS_URL"),
  });
  process.stdout.write(result.csv);
  process.stderr.write(`nightly sync: ${result.events} events, ${result.failed} without a benchmark\n`);
  process.exitCode = result.failed > 0 ? 1 : 0;
}
