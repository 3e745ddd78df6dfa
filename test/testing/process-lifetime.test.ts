/**
 * startMockApi's Prism dies with the process that started it, however that process ends: SIGTERM,
 * SIGINT and SIGKILL (no handler runs), process.exit without close(), an event loop that empties.
 * Real child processes: each starts the mock, then ends; its Prism pid must be gone and the port closed.
 */
import { execFileSync, fork } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import { describe, expect, it } from "vitest";

const CHILD = new URL("./fixtures/mock-child.ts", import.meta.url).pathname;

const listening = (url: string): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(Number(new URL(url).port), "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The child's own children (Prism): from /proc on Linux (no procps needed), else `pgrep -P` (macOS). */
function childrenOf(pid: number): number[] {
  if (process.platform === "linux") {
    return readdirSync("/proc")
      .filter((entry) => /^\d+$/.test(entry))
      .filter((entry) => {
        try {
          // Field 4 of /proc/<pid>/stat is the parent pid; the command name (field 2) may hold spaces.
          const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
          return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid;
        } catch {
          return false;
        }
      })
      .map(Number);
  }
  try {
    return execFileSync("pgrep", ["-P", String(pid)], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

async function startChild(how: string) {
  const child = fork(CHILD, [how], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const { baseUrl } = await new Promise<{ baseUrl: string }>((resolve, reject) => {
    child.once("message", (m) => resolve(m as { baseUrl: string }));
    child.once("exit", (code) => reject(new Error(`child exited (${code}) before the mock started`)));
  });
  const prism = childrenOf(child.pid ?? 0);
  return { child, baseUrl, prism };
}

// Each test starts Prism in a fresh process (a few seconds, more on a loaded machine).
describe("the mock ends with the process that started it", { timeout: 60_000 }, () => {
  it.each(["SIGTERM", "SIGINT", "SIGKILL"] as const)("%s of the test process", async (signal) => {
    const { child, baseUrl, prism } = await startChild("wait");
    expect(prism.length, "Prism runs as a child of the test process").toBeGreaterThan(0);
    expect(await listening(baseUrl)).toBe(true);
    child.kill(signal);
    expect(await until(() => prism.every((pid) => !alive(pid)), 5_000), `Prism ${prism} outlived ${signal}`).toBe(true);
    expect(await listening(baseUrl)).toBe(false);
  });

  it.each(["exit", "return"])("a test process that ends by %s without close()", async (how) => {
    const { child, baseUrl, prism } = await startChild(how);
    expect(prism.length).toBeGreaterThan(0);
    child.send("end");
    await until(() => child.exitCode !== null || child.signalCode !== null, 10_000);
    expect(child.exitCode, "the process ended on its own: the mock does not keep it alive").toBe(0);
    expect(await until(() => prism.every((pid) => !alive(pid)), 5_000), `Prism ${prism} outlived the process`).toBe(
      true,
    );
    expect(await listening(baseUrl)).toBe(false);
  });
});
