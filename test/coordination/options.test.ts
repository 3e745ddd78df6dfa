/** Bad coordinator options are refused by name, before anything is sent. */
import { describe, expect, it } from "vitest";
import { createAudienceClient } from "../../src/index.ts";
import { redisCoordinator } from "../../src/redis/index.ts";

const base = { baseUrl: "http://127.0.0.1:1/api/v3", session: { accessToken: "t-options" } };

describe("the coordinator option", () => {
  it.each([
    ["a string", "redis://127.0.0.1"],
    ["an object without partner()", {}],
    ["a session that is not a function", { partner: () => undefined, session: "file" }],
  ])("refuses %s, naming the option", (_label, coordinator) => {
    expect(() => createAudienceClient({ ...base, coordinator } as never)).toThrow(/option "coordinator"/);
  });
});

describe("redisCoordinator's options", () => {
  const redis = { call: async () => "OK" };
  it.each([
    ["no options", undefined, /"redis"/],
    ["a redis that is neither ioredis nor node-redis", { redis: { get: () => undefined } }, /"redis"/],
    ["a keyPrefix with braces (it would break the hash tag)", { redis, keyPrefix: "a{b}" }, /"keyPrefix"/],
    ["a keyPrefix with whitespace", { redis, keyPrefix: "a b" }, /"keyPrefix"/],
    ["a commandTimeoutMs of 0", { redis, commandTimeoutMs: 0 }, /"commandTimeoutMs"/],
  ])("refuses %s, naming the option", (_label, options, pattern) => {
    expect(() => redisCoordinator(options as never)).toThrow(pattern);
  });
});
