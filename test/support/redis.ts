/**
 * A real redis-server for the coordinator tests: `REDIS_URL` when set, else one
 * started here on a free 127.0.0.1 port without persistence, stopped by pid. Where no server binary
 * is found, `redisUnavailable()` says why and the tests skip, unless `REDIS_TESTS_REQUIRED=1` (set
 * by `.ci/run`), which makes that a failure.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { Redis } from "ioredis";
import { freePort } from "./free-port.ts";

function binary(): string | undefined {
  try {
    return execFileSync("sh", ["-c", "command -v redis-server"], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Why the Redis tests cannot run here, or undefined when they can. Throws when they are required. */
export function redisUnavailable(): string | undefined {
  if (process.env.REDIS_URL || binary()) return undefined;
  const why = "no redis-server binary on PATH and no REDIS_URL (apt-get install -y redis-server)";
  if (process.env.REDIS_TESTS_REQUIRED === "1") throw new Error(`Redis tests are required here, but ${why}`);
  console.warn(`Redis tests skipped: ${why}`);
  return why;
}

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Stops it for good. */
  stop(): Promise<void>;
  /** Kills it (SIGKILL: as a crash), keeping the port for `restart`. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
  /** A new ioredis client on it without an offline queue (the setup the README asks for). */
  client(): Redis;
  /** `client` once it is connected (without an offline queue, commands before that fail). */
  ready(client: Redis): Promise<Redis>;
}

const ready = async (client: Redis): Promise<Redis> => {
  if (client.status !== "ready") await new Promise((resolve) => client.once("ready", resolve));
  return client;
};

export async function startRedis(): Promise<RedisServer> {
  const external = process.env.REDIS_URL;
  const clients: Redis[] = [];
  const client = (url: string): Redis => {
    const c = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
    c.on("error", () => undefined);
    clients.push(c);
    return c;
  };
  if (external) {
    const port = Number(new URL(external).port || 6379);
    return {
      url: external,
      port,
      stop: async () => {
        for (const c of clients) c.disconnect();
      },
      kill: async () => {
        throw new Error("cannot kill an external REDIS_URL server");
      },
      restart: async () => undefined,
      client: () => client(external),
      ready,
    };
  }
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    child = spawn(
      binary() as string,
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
      {
        stdio: "ignore",
      },
    );
    const probe = new Redis(url, {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
    probe.on("error", () => undefined);
    for (let i = 0; i < 200; i++) {
      try {
        await probe.connect();
        await probe.ping();
        probe.disconnect();
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 10));
      }
    }
    probe.disconnect();
    throw new Error(`redis-server did not start on port ${port}`);
  };
  const killNow = async (signal: NodeJS.Signals): Promise<void> => {
    const c = child;
    // A process ended by a signal has a signalCode and no exitCode: it is gone too.
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((resolve) => c.once("exit", resolve));
    c.kill(signal);
    await exited;
  };
  await start();
  return {
    url,
    port,
    stop: async () => {
      for (const c of clients) c.disconnect();
      await killNow("SIGTERM");
    },
    kill: () => killNow("SIGKILL"),
    restart: start,
    client: () => client(url),
    ready,
  };
}
