/**
 * The nightly-sync recipe (examples/nightly-sync.ts) as a partner runs it: as a script, in two
 * processes at once, against the test kit and a real redis-server. Both finish and exit by
 * themselves, with one sign-in between them and the partner's cap held (Sections 5, 8.4); with
 * Redis down each still finishes on its own share, says so once, and exits.
 */
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toCsv } from "../../examples/nightly-sync.ts";
import {
  expectConcurrencyAtMost,
  expectPartnerHeaderOnEvery,
  type MockApi,
  startMockApi,
} from "../../src/testing/index.ts";
import { freePort } from "../support/free-port.ts";
import { type RedisServer, redisUnavailable, startRedis } from "../support/redis.ts";

const skip = redisUnavailable() !== undefined;
let api: MockApi;
let redis: RedisServer;

beforeAll(async () => {
  if (skip) return;
  [api, redis] = await Promise.all([startMockApi(), startRedis()]);
}, 60_000);
afterAll(async () => {
  await api?.close();
  await redis?.stop();
});

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The recipe as a script; killed (and failed) if it has not exited by itself within 30 s. */
function runScript(redisUrl: string): Promise<Run> {
  const child = spawn(process.execPath, ["--import", "tsx", "examples/nightly-sync.ts"], {
    env: {
      ...process.env,
      AI_BASE_URL: api.baseUrl,
      AI_USERNAME: api.credentials.username,
      AI_PASSWORD: api.credentials.password,
      REDIS_URL: redisUrl,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  return new Promise((resolve) =>
    child.on("close", (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr });
    }),
  );
}

const signIns = () => api.requests().filter((r) => r.method === "POST" && r.path === "/auth").length;

describe.skipIf(skip)("examples/nightly-sync.ts", () => {
  it("two processes share one sign-in and the cap, write the same CSV, and exit by themselves", async () => {
    api.reset();
    const [a, b] = await Promise.all([runScript(redis.url), runScript(redis.url)]);
    for (const run of [a, b]) {
      expect(run.signal, run.stderr).toBeNull();
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).not.toMatch(/Unhandled|Error:|at .*\.ts:\d+/);
    }
    expect(a.stdout).toBe(b.stdout);
    const lines = a.stdout.trimEnd().split("\r\n");
    expect(lines[0]).toBe("event,unit,latest_fraction,error");
    expect(lines.length).toBeGreaterThan(1);
    expect(signIns()).toBe(1);
    expectConcurrencyAtMost(api.requests(), 8);
    expectPartnerHeaderOnEvery(api.requests(), api.partnerId);
  }, 60_000);

  it("with Redis down, each process finishes on its own share, says so once, and exits", async () => {
    api.reset();
    const closedPort = await freePort();
    const run = await runScript(`redis://127.0.0.1:${closedPort}`);
    expect(run.signal, run.stderr).toBeNull();
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.match(/Redis unavailable/g)).toHaveLength(1);
    expect(run.stderr).not.toMatch(/Unhandled error event/);
    expect(run.stdout.startsWith("event,unit,latest_fraction,error\r\n")).toBe(true);
  }, 60_000);
});

describe("toCsv", () => {
  it("quotes what needs quoting and defuses what a spreadsheet would run", () => {
    expect(toCsv([["a", 'say "hi"', "x,y", "=HYPERLINK(1)", "-2+3", "@sum", "plain"]])).toBe(
      `a,"say ""hi""","x,y","'=HYPERLINK(1)","'-2+3","'@sum",plain\r\n`,
    );
  });
});
