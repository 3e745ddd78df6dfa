/** Bad coordinator options are refused by name, before anything is sent. */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { durableObjectCoordinator } from "../../src/cloudflare/index.ts";
import { createAudienceClient, ValidationError } from "../../src/index.ts";
import { fileCoordinator, fileSessionShare } from "../../src/node/index.ts";
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

describe("redisCoordinator's options, each checked when the coordinator is made", () => {
  const redis = { call: async () => "OK" };
  it.each([
    ["options without redis", {}, /option "redis" is required/],
    ["a redis of null (a client not made yet)", { redis: null }, /option "redis" is required/],
    ["an array for options", [], /option "redis" is required/],
    ["a failClosed that is not a boolean (a fail-open in disguise)", { redis, failClosed: "yes" }, /"failClosed"/],
    ["an onUnavailable that is not a function", { redis, onUnavailable: 5 }, /"onUnavailable"/],
    ["an onRestored that is not a function", { redis, onRestored: "log" }, /"onRestored"/],
    ["a timing that is not an object", { redis, timing: 5 }, /"timing"/],
    ["a timing that is none of the coordinator's", { redis, timing: { leasems: 600 } }, /"timing\.leasems"/],
    ["a timing of 0", { redis, timing: { leaseMs: 0 } }, /"timing\.leaseMs"/],
    ["a negative timing", { redis, timing: { pollMs: -5 } }, /"timing\.pollMs"/],
    ["a timing given as text", { redis, timing: { lockMs: "10000" } }, /"timing\.lockMs"/],
    ["a timing that is not a whole number of ms", { redis, timing: { probeMs: 1.5 } }, /"timing\.probeMs"/],
    ["a timing past an hour", { redis, timing: { lockWaitMs: 3_600_001 } }, /"timing\.lockWaitMs"/],
  ])("refuses %s, naming the option", (_label, options, pattern) => {
    expect(() => redisCoordinator(options as never)).toThrow(pattern);
    expect(() => redisCoordinator(options as never)).toThrow(TypeError);
  });

  it("takes each timing it documents, and booleans and functions as given", () => {
    const timing = { leaseMs: 600, liveMs: 1_200, pollMs: 10, probeMs: 100, lockMs: 1_000, lockWaitMs: 2_000 };
    expect(() =>
      redisCoordinator({ redis, timing, failClosed: false, onUnavailable: () => {}, onRestored: () => {} }),
    ).not.toThrow();
  });
});

describe("durableObjectCoordinator's options, each checked when the coordinator is made", () => {
  const namespace = { idFromName: () => ({}), get: () => ({ fetch: async () => new Response("{}") }) };
  it.each([
    ["a number for options", 5, /options must be an object/],
    ["a string for options", "fail-closed", /options must be an object/],
    ["an array for options", [], /options must be an object/],
    ["a failClosed that is not a boolean (a fail-open in disguise)", { failClosed: "yes" }, /"failClosed"/],
    ["an onUnavailable that is not a function", { onUnavailable: 5 }, /"onUnavailable"/],
    ["an onRestored that is not a function", { onRestored: {} }, /"onRestored"/],
    ["a logger that is not an object", { logger: "console" }, /"logger"/],
    ["a logger whose warn is not a function", { logger: { warn: 5 } }, /"logger\.warn"/],
    ["a timing that is not an object", { timing: "fast" }, /option "timing" must be an object/],
    ["a timing given as text", { timing: { leaseMs: "30000" } }, /"timing\.leaseMs"/],
  ])("refuses %s, naming the option", (_label, options, pattern) => {
    expect(() => durableObjectCoordinator(namespace as never, options as never)).toThrow(pattern);
    expect(() => durableObjectCoordinator(namespace as never, options as never)).toThrow(TypeError);
  });

  it("takes null as no options, as every helper of the package does", () => {
    expect(() => durableObjectCoordinator(namespace as never, null as never)).not.toThrow();
  });
});

describe("the file coordinator's options", () => {
  it.each([
    ["fileCoordinator", () => fileCoordinator({ directory: join(tmpdir(), "never-made"), onWarning: 5 } as never)],
    [
      "fileSessionShare",
      () => fileSessionShare({ path: join(tmpdir(), "never-made.json"), onWarning: "log" } as never),
    ],
  ])("%s refuses an onWarning that is not a function, naming it", (_label, make) => {
    expect(make).toThrow(ValidationError);
    expect(make).toThrow(/onWarning/);
  });
});
