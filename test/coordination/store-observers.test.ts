/**
 * A coordinator's observers (`onUnavailable`, `onRestored`, the Durable Object coordinator's
 * logger, the file share's `onWarning`) are the application's code, run at the worst moment: while
 * the shared store is away. One that throws changes nothing: the call goes on at the process's fair
 * share (or fails with failClosed's own error), the store is used again when it answers, and no
 * rejection escapes to the process (Node ends a process on an unhandled rejection).
 */
import { randomUUID } from "node:crypto";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { durableObjectCoordinator } from "../../src/cloudflare/index.ts";
import { fileSessionShare } from "../../src/node/index.ts";
import { type RedisClientLike, redisCoordinator } from "../../src/redis/index.ts";
import { interactiveTurn, partnerKey } from "../support/partner-keys.ts";
import { type RedisServer, redisUnavailable, startRedis } from "../support/redis.ts";

const request = interactiveTurn;
const key = () => partnerKey();
const bug = () => {
  throw new Error("the observer's own bug");
};
/** An async observer that fails: a promise that rejects, which no one else handles. */
const asyncBug = async () => {
  throw new Error("the async observer's own bug");
};

/** Rejections no one handled while a test ran (vitest reports them too, after the fact). */
const escaped: unknown[] = [];
const onEscaped = (reason: unknown) => escaped.push(reason);
beforeEach(() => {
  escaped.length = 0;
  process.on("unhandledRejection", onEscaped);
  process.on("uncaughtException", onEscaped);
});
afterEach(() => {
  process.off("unhandledRejection", onEscaped);
  process.off("uncaughtException", onEscaped);
});

const refused = () => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:6379"), { code: "ECONNREFUSED" });

describe("an observer that throws while the store is away", () => {
  it.each([
    ["that throws", bug],
    ["that is async and rejects", asyncBug],
  ])("redisCoordinator's onUnavailable %s: the turn goes on at the fair share", async (_label, observer) => {
    const down: RedisClientLike = { call: async () => Promise.reject(refused()) };
    const coordinator = redisCoordinator({ redis: down, keyPrefix: `obs-${randomUUID()}:`, onUnavailable: observer });
    const turn = await coordinator.partner(key()).turn(request);
    turn.done({ kind: "admitted" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(escaped).toEqual([]);
  });

  it("redisCoordinator's onUnavailable with failClosed: the call fails with failClosed's error, not the observer's", async () => {
    const down: RedisClientLike = { call: async () => Promise.reject(refused()) };
    const coordinator = redisCoordinator({
      redis: down,
      keyPrefix: `obs-${randomUUID()}:`,
      failClosed: true,
      onUnavailable: bug,
    });
    await expect(coordinator.partner(key()).turn(request)).rejects.toThrow(/failClosed: not sent/);
  });

  it.each([
    ["that throw", bug],
    ["that are async and reject", asyncBug],
  ])(
    "durableObjectCoordinator's onUnavailable and logger %s: the turn goes on at the fair share",
    async (_label, observer) => {
      const namespace = {
        idFromName: (name: string) => ({ name: `${name}-${randomUUID()}` }),
        get: () => ({ fetch: async () => Promise.reject(new Error("Network connection lost.")) }),
      };
      const coordinator = durableObjectCoordinator(namespace as never, {
        onUnavailable: observer,
        logger: { warn: observer, info: observer },
      });
      const turn = await coordinator.partner(key()).turn(request);
      turn.done({ kind: "admitted" });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(escaped).toEqual([]);
    },
  );

  it("fileSessionShare's onWarning: a share file it cannot trust is read as absent", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ai-observers-"));
    try {
      const path = join(dir, "session.json");
      await writeFile(path, "{}");
      await chmod(path, 0o666); // writable by others: not trusted, reported through onWarning
      const share = fileSessionShare({ path, onWarning: bug });
      const record = await share.read();
      expect(record.tokens).toBeUndefined();
      expect(escaped).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

const skip = redisUnavailable();
describe.skipIf(skip)("redisCoordinator's onRestored that throws (a real redis-server)", () => {
  let redis: RedisServer;
  let real: Redis;
  beforeAll(async () => {
    redis = await startRedis();
    real = await redis.ready(redis.client());
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it("escapes nowhere, and the coordinator uses Redis again", async () => {
    let away = true;
    let restored = 0;
    const flaky: RedisClientLike = {
      call: (command: string, ...args: Array<string | number>) =>
        away ? Promise.reject(refused()) : real.call(command, ...args),
    };
    const coordinator = redisCoordinator({
      redis: flaky,
      keyPrefix: `obs-${randomUUID()}:`,
      timing: { probeMs: 50 },
      onRestored: () => {
        restored += 1;
        bug();
      },
    });
    const partner = coordinator.partner(key());
    (await partner.turn(request)).done({ kind: "admitted" });
    away = false;
    const deadline = Date.now() + 5_000;
    while (restored === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(restored).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(escaped).toEqual([]);
    (await partner.turn(request)).done({ kind: "admitted" });
    expect(await real.keys("obs-*")).not.toEqual([]);
    await coordinator.close();
  });
});
