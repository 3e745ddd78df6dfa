/**
 * Section 8.4's 8 calls in flight for the partner, held by more than one real process on a real
 * redis-server, when Redis goes away and when it loses its state mid-burst (FLUSHALL). The server
 * counts the calls it is answering at once; the expectation is the specification's number.
 */
import { type ChildProcess, fork } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json } from "../support/recording-server.ts";
import { type RedisServer, redisUnavailable, startRedis } from "../support/redis.ts";

const skip = redisUnavailable();
const childScript = fileURLToPath(new URL("../support/burst-child.ts", import.meta.url));
const children: ChildProcess[] = [];
let redis: RedisServer | undefined;
let api: FakeApi | undefined;

afterEach(async () => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  await api?.close();
  await redis?.stop();
  api = undefined;
  redis = undefined;
});

interface BurstResult {
  readonly ok: number;
  readonly failed: number;
  readonly degraded: boolean;
}

/** A forked process of the group: `burst(n)` makes it send n calls at once. */
async function member(task: Record<string, unknown>) {
  const child = fork(childScript, [JSON.stringify(task)], { execArgv: ["--import", "tsx"], stdio: "inherit" });
  children.push(child);
  const messages: unknown[] = [];
  const waiters: Array<() => void> = [];
  const wake = () => {
    for (const w of waiters.splice(0)) w();
  };
  child.on("message", (m) => {
    messages.push(m);
    wake();
  });
  child.on("exit", wake);
  const nextMessage = async (): Promise<unknown> => {
    while (messages.length === 0) {
      if (child.exitCode !== null) throw new Error(`child exited (${child.exitCode})`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
    return messages.shift();
  };
  await nextMessage(); // ready
  return {
    burst: async (n: number) => {
      child.send({ burst: n });
      return (await nextMessage()) as BurstResult;
    },
  };
}

/** An API whose described calls take `ms`; counts the calls it answers at once. */
async function slowApi(ms: number) {
  const server = await startFakeApi();
  let now = 0;
  let most = 0;
  server.route((_req, res) => {
    now += 1;
    most = Math.max(most, now);
    setTimeout(() => {
      now -= 1;
      json(res, 200, { eid: "e" });
    }, ms);
  });
  return {
    server,
    inFlight: () => now,
    mostInFlight: () => most,
    reset: () => {
      most = now;
    },
  };
}

describe.skipIf(skip)("8 calls in flight for the partner, whatever Redis does (Section 8.4)", () => {
  it("Redis away: two processes at their fair share hold 8 in flight together, not 8 each", async () => {
    redis = await startRedis();
    const witness = await slowApi(150);
    api = witness.server;
    const task = { baseUrl: api.url, redisUrl: redis.url, keyPrefix: `limits-${randomUUID()}:` };
    const [a, b] = [await member(task), await member(task)];
    if (!a || !b) throw new Error("no members");
    // Two rounds: after the first, each process is among the partner's live processes (for 10 s),
    // so every turn of the second counts both, whatever the order the processes started in.
    await Promise.all([a.burst(4), b.burst(4)]);
    await Promise.all([a.burst(12), b.burst(12)]);
    expect(witness.mostInFlight()).toBeLessThanOrEqual(8);
    await redis.kill();
    witness.reset();
    const results = await Promise.all([a.burst(16), b.burst(16)]);
    expect(results).toEqual([
      { ok: 16, failed: 0, degraded: true },
      { ok: 16, failed: 0, degraded: true },
    ]);
    expect(witness.mostInFlight()).toBeLessThanOrEqual(8); // each process taking all 8: 16
  }, 30_000);

  it("Redis away after a second process joined a quiet first: the first has counted it, together they stay at 8", async () => {
    redis = await startRedis();
    const witness = await slowApi(150);
    api = witness.server;
    // Leases of 600 ms: a process that was active lately tells Redis it lives every 200 ms.
    const task = {
      baseUrl: api.url,
      redisUrl: redis.url,
      keyPrefix: `limits-${randomUUID()}:`,
      timing: { leaseMs: 600 },
    };
    const a = await member(task);
    await a.burst(8); // a's last turn: it counts one process
    const b = await member(task);
    await b.burst(8); // b counts two
    await new Promise((r) => setTimeout(r, 1_000)); // nothing asked of a meanwhile
    await redis.kill();
    witness.reset();
    const results = await Promise.all([a.burst(16), b.burst(16)]);
    expect(results.map((r) => r.failed)).toEqual([0, 0]);
    expect(witness.mostInFlight()).toBeLessThanOrEqual(8); // a counting only itself: 12
  }, 30_000);

  it("FLUSHALL mid-burst: the leases Redis lost are put back before new admissions", async () => {
    redis = await startRedis();
    const admin = await redis.ready(redis.client());
    const witness = await slowApi(400);
    api = witness.server;
    const task = {
      baseUrl: api.url,
      redisUrl: redis.url,
      keyPrefix: `limits-${randomUUID()}:`,
      timing: { leaseMs: 1_500 },
    };
    const [a, b] = [await member(task), await member(task)];
    if (!a || !b) throw new Error("no members");
    await Promise.all([a.burst(2), b.burst(2)]); // signed in, and each seen by the shared state
    witness.reset();
    const bursts = Promise.all([a.burst(16), b.burst(16)]);
    const until = Date.now() + 5_000;
    while (witness.inFlight() < 8 && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
    expect(witness.inFlight()).toBe(8);
    await admin.flushall();
    const results = await bursts;
    expect(results.map((r) => r.failed)).toEqual([0, 0]);
    expect(witness.mostInFlight()).toBeLessThanOrEqual(8); // before: 16
  }, 30_000);
});
