/**
 * A redis-server of the cluster benchmark's own: 127.0.0.1, a free port, no persistence, stopped
 * by its pid. It can be killed (SIGKILL, as a crash) and started again on the same port. Its
 * `INFO commandstats` and `MONITOR` are read with redis-cli, so this process needs no Redis client.
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
  /**
   * Watches every command from now on (`MONITOR`); `stop` resolves with the commands clients sent
   * (round trips, a pipeline aside) and those Lua scripts ran, per command name.
   */
  monitor(): Promise<{ stop(): Promise<{ sent: Map<string, number>; inScripts: Map<string, number> }> }>;
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

/** `promise`, or an error after `ms`. */
async function within(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
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
    monitor: async () => {
      const watcher = spawn(CLI, ["-h", "127.0.0.1", "-p", String(port), "MONITOR"], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      let text = "";
      watcher.stdout.setEncoding("utf8");
      const started = new Promise<void>((resolve, reject) => {
        watcher.once("exit", (code) => reject(new Error(`redis-cli MONITOR exited (${code})`)));
        watcher.stdout.on("data", (chunk: string) => {
          text += chunk;
          if (text.startsWith("OK")) resolve();
        });
      });
      await within(started, 5_000);
      return {
        stop: async () => {
          await ended(watcher, "SIGTERM");
          const sent = new Map<string, number>();
          const inScripts = new Map<string, number>();
          // `1764100000.123456 [0 127.0.0.1:40000] "evalsha" …`, or `[0 lua]` for a script's own.
          for (const match of text.matchAll(/^\d+\.\d+ \[\d+ ([^\]]+)\] "([^"]+)"/gm)) {
            const [, from, command] = match;
            if (!from || !command) continue;
            const name = command.toLowerCase();
            if (name === "info") continue;
            const into = from === "lua" ? inScripts : sent;
            into.set(name, (into.get(name) ?? 0) + 1);
          }
          return { sent, inScripts };
        },
      };
    },
    stop: async () => {
      if (child) await ended(child, "SIGTERM");
      if (child && child.exitCode === null && child.signalCode === null) await ended(child, "SIGKILL");
      child = undefined;
    },
  };
}
