/**
 * Any failure of a coordinator command that is not a bug of our own script means "Redis is away":
 * calls go on at the process's fair share (or fail with failClosed's typed error), and
 * `onUnavailable` is told. Real redis-servers refuse with NOPERM (an ACL user without the commands),
 * READONLY (a replica) and BUSY (a long script); the other replies and the shapes no script of ours
 * gives come from a client wrapped around a real one. Both ioredis and node-redis.
 */
import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { createClient, type RedisClientType } from "redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAudienceClient } from "../../src/index.ts";
import { type RedisClientLike, redisCoordinator } from "../../src/redis/index.ts";
import { startFakeApi } from "../support/fake-api.ts";
import { interactiveTurn, partnerKey } from "../support/partner-keys.ts";
import { json } from "../support/recording-server.ts";
import { type RedisServer, redisUnavailable, startRedis } from "../support/redis.ts";

const skip = redisUnavailable();
let redis: RedisServer;
let admin: Redis;
beforeAll(async () => {
  if (skip) return;
  redis = await startRedis();
  admin = await redis.ready(redis.client());
});
afterAll(async () => {
  await redis?.stop();
});

const request = interactiveTurn;
const key = () => partnerKey();

/** A coordinator on `client`; `away` holds the errors `onUnavailable` was told. */
function open(client: RedisClientLike, failClosed = false) {
  const away: Error[] = [];
  const coordinator = redisCoordinator({
    redis: client,
    keyPrefix: `failures-${randomUUID()}:`,
    failClosed,
    onUnavailable: (error) => away.push(error),
  });
  return { coordinator, away };
}

/** Settles within `ms` (as `{ value }` or `{ error }`), or rejects saying it hung. */
async function settle<T>(pending: T | Promise<T>, ms = 2_000): Promise<{ value?: T; error?: unknown }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not settle within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([Promise.resolve(pending).then((value) => ({ value })), hung]);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith("did not settle")) throw error;
    return { error };
  } finally {
    clearTimeout(timer);
  }
}

/** ioredis's own error class for a server's error reply, as the real client rejects with it. */
function replyError(message: string): Error {
  const error = new Error(message);
  error.name = "ReplyError";
  return error;
}

/** A real client whose scripts answer `answer` (a reply, or an error reply); PING and the rest pass. */
function wrapped(real: Redis, answer: () => Promise<unknown>): RedisClientLike {
  return {
    call: (command: string, ...args: Array<string | number>) =>
      command === "EVALSHA" || command === "EVAL" ? answer() : real.call(command, ...args),
  };
}

/** The turn went on at the fair share, and onUnavailable was told once, with a RedisUnavailable. */
async function expectFairShare(client: RedisClientLike, code?: string): Promise<void> {
  const { coordinator, away } = open(client);
  const outcome = await settle(coordinator.partner(key()).turn(request));
  expect(outcome.error).toBeUndefined();
  outcome.value?.done({ kind: "admitted" });
  expect(away.map((e) => e.name)).toEqual(["RedisUnavailable"]);
  // The server's refusal by its code (not a timeout); never the reply's text.
  if (code) expect(away[0]?.message).toMatch(new RegExp(`\\b${code}$`));
}

describe.skipIf(skip)("error replies of a real redis-server mean Redis is away", () => {
  it("NOPERM (an ACL user without EVALSHA/EVAL), over ioredis and node-redis", async () => {
    const user = `limited-${randomUUID().slice(0, 8)}`;
    await admin.call("ACL", "SETUSER", user, "on", ">limited-pw-1", "~*", "+ping", "+info", "+hello", "+client");
    const io = new Redis(redis.url, {
      username: user,
      password: "limited-pw-1",
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
    });
    io.on("error", () => undefined);
    await redis.ready(io);
    const nr = createClient({ url: redis.url, username: user, password: "limited-pw-1", disableOfflineQueue: true });
    nr.on("error", () => undefined);
    await nr.connect();
    try {
      await expectFairShare(io, "NOPERM");
      await expectFairShare(nr as unknown as RedisClientType, "NOPERM");
    } finally {
      io.disconnect();
      nr.destroy();
      await admin.call("ACL", "DELUSER", user);
    }
  });

  it("NOPERM with failClosed: the call fails with a NetworkError and nothing is sent", async () => {
    const user = `limited-${randomUUID().slice(0, 8)}`;
    await admin.call("ACL", "SETUSER", user, "on", ">limited-pw-2", "~*", "+ping", "+info", "+hello", "+client");
    const io = new Redis(redis.url, { username: user, password: "limited-pw-2", enableOfflineQueue: false });
    io.on("error", () => undefined);
    await redis.ready(io);
    const api = await startFakeApi();
    api.route((_req, res) => json(res, 200, { eid: "e" }));
    try {
      const { coordinator, away } = open(io, true);
      const client = createAudienceClient({
        baseUrl: api.url,
        credentials: { username: "u@example.test", password: "pw-secret-value" },
        coordinator,
        retry: { maxAttempts: 1 },
      });
      const calls = api.calls().length;
      await expect(client.GET("/events/{eid}", { params: { path: { eid: "e1" } } })).rejects.toMatchObject({
        name: "NetworkError",
      });
      expect(api.calls().length).toBe(calls);
      expect(away.length).toBeGreaterThan(0);
    } finally {
      io.disconnect();
      await api.close();
      await admin.call("ACL", "DELUSER", user);
    }
  });

  it("READONLY (a replica: after a failover, a client still pointed at the old primary)", async () => {
    const replica = await startRedis();
    try {
      const client = await replica.ready(replica.client());
      // Its primary is a closed port: it stays a read-only replica serving what it has.
      await client.call("REPLICAOF", "127.0.0.1", String(redis.port === 1 ? 2 : 1));
      await expectFairShare(client, "READONLY");
    } finally {
      await replica.stop();
    }
  });

  it("BUSY (another client's script runs past busy-reply-threshold)", async () => {
    const busy = await startRedis();
    const killer = await busy.ready(busy.client());
    // Connected before the server turns busy (a connection's ready check would get BUSY too).
    const client = await busy.ready(busy.client());
    const runner = await busy.ready(busy.client());
    try {
      await killer.call("CONFIG", "SET", "busy-reply-threshold", "10");
      runner.call("EVAL", "while true do end", "0").catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
      await expectFairShare(client, "BUSY");
    } finally {
      await killer.call("SCRIPT", "KILL").catch(() => undefined);
      await busy.stop();
    }
  });
});

describe.skipIf(skip)("NOSCRIPT is not Redis being away: the script is sent again", () => {
  it.each(["ioredis", "node-redis"])("%s, after SCRIPT FLUSH", async (which) => {
    const nr = createClient({ url: redis.url, disableOfflineQueue: true });
    nr.on("error", () => undefined);
    await nr.connect();
    try {
      const client = which === "ioredis" ? admin : (nr as unknown as RedisClientType);
      await admin.call("SCRIPT", "FLUSH");
      const { coordinator, away } = open(client);
      const turn = await coordinator.partner(key()).turn(request);
      turn.done({ kind: "admitted" });
      expect(away).toEqual([]);
    } finally {
      nr.destroy();
    }
  });
});

describe.skipIf(skip)("every other error reply and every reply of an unexpected shape", () => {
  it.each([
    "LOADING Redis is loading the dataset in memory",
    "READONLY You can't write against a read only replica.",
    "NOPERM User has no permissions to run the 'evalsha' command",
    "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.",
    "MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.",
    "OOM command not allowed when used memory > 'maxmemory'.",
    "CLUSTERDOWN The cluster is down",
  ])("%s: the fair share", async (message) => {
    await expectFairShare(wrapped(admin, async () => Promise.reject(replyError(message))));
  });

  it.each([
    ["null", null],
    ["a status", "OK"],
    ["a number", 42],
    ["an empty array", []],
    ["a kind alone", ["ok"]],
    ["an unknown kind (polled for ever before)", ["wait", "0", "8", "", "0", "1", "0", "0"]],
    ["a limit that is not a number", ["ok", "0", "eight", "", "0", "1", "0", "0"]],
    ["a pace wait beyond any the pacer asks", ["pace", "1e12", "8", "1", "0", "1", "0", "0"]],
  ])("%s: the fair share, never a TypeError or an endless poll", async (_, shape) => {
    await expectFairShare(wrapped(admin, async () => shape));
  });

  it("a bug of our own script (a Lua runtime error) is not Redis being away: it surfaces", async () => {
    const bug = "ERR user_script:3: attempt to compare nil with number script: 0123abcd, on @user_script:3.";
    const { coordinator, away } = open(wrapped(admin, async () => Promise.reject(replyError(bug))));
    const outcome = await settle(coordinator.partner(key()).turn(request));
    expect((outcome.error as Error).message).toBe(bug);
    expect(away).toEqual([]);
  });
});
