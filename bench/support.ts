/** Small helpers of the benchmark runner: the server process, statistics, formatting. */
import { fork } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

/** What the limited mount counted for one partner (bench/server.ts). */
export interface PartnerCounts {
  readonly admitted: number;
  /** 429s. */
  readonly refused: number;
  /** 401s for an access token past its `exp`. */
  readonly unauthorized: number;
  /** Most of the partner's calls at the server at once, over the run and in the quiet period after a 429. */
  readonly maxInFlight: number;
  readonly maxInFlightQuiet: number;
  /** POST /auth and POST /auth/refresh_token with the partner id as user name. */
  readonly signIns: number;
  readonly refreshes: number;
}

const NO_COUNTS: PartnerCounts = {
  admitted: 0,
  refused: 0,
  unauthorized: 0,
  maxInFlight: 0,
  maxInFlightQuiet: 0,
  signIns: 0,
  refreshes: 0,
};

export interface BenchServer {
  /** `http://127.0.0.1:<port>/fast/api/v3`: answers at once. */
  readonly fast: string;
  /** `http://127.0.0.1:<port>/limited/api/v3`: 20 ms latency, token bucket per partner. */
  readonly limited: string;
  counts(partner: string): Promise<PartnerCounts>;
  /** Access tokens signed for user `user` live `tokenTtlMs` (rounded up to whole seconds). */
  configure(user: string, tokenTtlMs: number): Promise<void>;
  close(): void;
}

/** Forks bench/server.ts (through tsx, like this process) and waits for its port. */
export async function startBenchServer(): Promise<BenchServer> {
  const child = fork(fileURLToPath(new URL("./server.ts", import.meta.url)), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`bench server exited (${code})`)));
    child.on("message", (m: { type?: string; port?: number }) => m?.type === "ready" && resolve(m.port as number));
  });
  const origin = `http://127.0.0.1:${port}`;
  /** Sends `message` and resolves with the first answer of type `answer`. */
  const ask = <T>(message: object, answer: string): Promise<T> =>
    new Promise((resolve) => {
      const onMessage = (m: { type?: string }) => {
        if (m?.type !== answer) return;
        child.off("message", onMessage);
        resolve(m as T);
      };
      child.on("message", onMessage);
      child.send(message);
    });
  return {
    fast: `${origin}/fast/api/v3`,
    limited: `${origin}/limited/api/v3`,
    counts: async (partner) => {
      const m = await ask<{ partners?: Record<string, PartnerCounts> }>({ type: "stats" }, "stats");
      return m.partners?.[partner] ?? NO_COUNTS;
    },
    configure: async (user, tokenTtlMs) => {
      await ask({ type: "configure", user, tokenTtlMs }, "configured");
    },
    close: () => {
      child.removeAllListeners("exit");
      child.kill();
    },
  };
}

/** Signs in against the bench server the way a bare client would, for the baselines' headers. */
export async function bareHeaders(base: string, partner: string): Promise<Record<string, string>> {
  const response = await fetch(`${base}/auth`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "bench", password: "bench-password" }),
  });
  const tokens = (await response.json()) as { AccessToken: string };
  return { Authorization: `Bearer ${tokens.AccessToken}`, "X-Preferred-Partner-Id": partner };
}

export const credentials = { username: "bench@example.test", password: "bench-password" };

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Runs `call(i)` for i in [0, total) with `concurrency` workers; resolves with the elapsed ms. */
export async function drive(
  total: number,
  concurrency: number,
  call: (i: number) => Promise<unknown>,
): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) await call(next++);
    }),
  );
  return performance.now() - started;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Rotates the order of the variants each round, so none always runs first or last. */
export function rotated<T>(items: readonly T[], round: number): T[] {
  const k = round % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

export const fixed = (n: number, digits = 1): string => n.toFixed(digits);
export const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}×`;

export function table(head: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  return [
    `| ${head.join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  ].join("\n");
}

export interface Target {
  readonly name: string;
  readonly target: string;
  readonly measured: string;
  readonly met: boolean;
}

export interface Section {
  readonly title: string;
  readonly body: string;
  readonly targets: Target[];
}

/**
 * The package as a consumer runs it: src/index.ts built by esbuild (platform node, ESM,
 * dependencies left as imports from node_modules) into bench/.build/ (git-ignored; in this checkout,
 * not in node_modules/.cache/, which worktrees sharing one node_modules would overwrite for each
 * other). Returns the file.
 */
export async function buildPackage(from?: string, name = "client"): Promise<string> {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const outDir = join(root, "bench", ".build");
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, `${name}.mjs`);
  await build({
    entryPoints: [join(from ?? root, "src", "index.ts")],
    outfile: file,
    bundle: true,
    platform: "node",
    format: "esm",
    packages: "external",
    logLevel: "silent",
  });
  return file;
}
