/**
 * A redis-server of the cluster benchmark's own: 127.0.0.1, a free port, no persistence, stopped
 * by its pid. It can be killed (SIGKILL, as a crash) and started again on the same port. Its
 * `INFO commandstats` is read with redis-cli, so this process needs no Redis client.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import { freePort } from "../src/testing/prism.ts";
import { sleep } from "./support.ts";

const run = promisify(execFile);
const SERVER = process.env.REDIS_SERVER ?? "/usr/bin/redis-server";
const CLI = process.env.REDIS_CLI ?? "/usr/bin/redis-cli";

export interface BenchRedis {
  readonly url: string;
  /** Kills the server with SIGKILL (a crash: no reply to anyone). */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
  /** Whether it is running now. */
  readonly running: boolean;
  /** Commands served since the server started, per command name (`INFO commandstats`), less the INFO that asks. */
  commandCalls(): Promise<Map<string, number>>;
  stop(): Promise<void>;
}

/** Why no server can be started here, or undefined when one can. */
export function redisUnavailable(): string | undefined {
  if (!existsSync(SERVER)) return `no redis-server at ${SERVER} (set REDIS_SERVER)`;
  if (!existsSync(CLI)) return `no redis-cli at ${CLI} (set REDIS_CLI)`;
  return undefined;
}

async function ping(port: number): Promise<boolean> {
  try {
    const { stdout } = await run(CLI, ["-h", "127.0.0.1", "-p", String(port), "PING"], { timeout: 2_000 });
    return stdout.trim() === "PONG";
  } catch {
    return false;
  }
}

async function spawnServer(port: number): Promise<ChildProcess> {
  const child = spawn(
    SERVER,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--loglevel", "warning"],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  const until = performance.now() + 10_000;
  while (performance.now() < until) {
    if (child.exitCode !== null) throw new Error(`redis-server exited (${child.exitCode}) on port ${port}`);
    if (await ping(port)) return child;
    await sleep(50);
  }
  child.kill("SIGKILL");
  throw new Error(`redis-server did not answer on port ${port} within 10 s`);
}

async function ended(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill(signal);
  await Promise.race([exited, sleep(5_000)]);
}

export async function startRedis(): Promise<BenchRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined = await spawnServer(port);
  return {
    url: `redis://127.0.0.1:${port}`,
    get running() {
      return child !== undefined;
    },
    kill: async () => {
      if (child) await ended(child, "SIGKILL");
      child = undefined;
    },
    restart: async () => {
      if (!child) child = await spawnServer(port);
    },
    commandCalls: async () => {
      const { stdout } = await run(CLI, ["-h", "127.0.0.1", "-p", String(port), "INFO", "commandstats"], {
        timeout: 5_000,
      });
      const calls = new Map<string, number>();
      for (const match of stdout.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
        const [, name, count] = match;
        if (name && count && name !== "info") calls.set(name, Number(count));
      }
      return calls;
    },
    stop: async () => {
      if (child) await ended(child, "SIGTERM");
      if (child && child.exitCode === null && child.signalCode === null) await ended(child, "SIGKILL");
      child = undefined;
    },
  };
}
