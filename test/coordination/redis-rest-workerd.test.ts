/**
 * The REST path of the Redis coordinator in an edge runtime: bundled as a worker would be (esbuild,
 * platform neutral: a `node:` import would not even resolve), its module graph holds no `node:`
 * module, and in real workerd (Miniflare 4) two workers' clients share one partner's budget and
 * sign-in through the REST front on the real redis-server: at most 8 calls in flight at the API,
 * one sign-in, no failed call, Redis never reported away.
 */
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeApi } from "../support/fake-api.ts";
import { json } from "../support/recording-server.ts";
import { type RedisServer, redisUnavailable, startRedis } from "../support/redis.ts";
import { type RestFront, startRestFront } from "../support/redis-rest.ts";
import { bundleWorker, COMPATIBILITY_DATE, startMiniflare } from "../support/workerd.ts";

const skip = redisUnavailable();
const TOKEN = "workerd-rest-token-0123456789";
let redis: RedisServer;
let front: RestFront;
beforeAll(async () => {
  if (skip) return;
  redis = await startRedis();
  front = await startRestFront(await redis.ready(redis.client()), TOKEN);
});
afterAll(async () => {
  await front?.close();
  await redis?.stop();
});

describe("the /redis entry's module graph", () => {
  it("imports no node: module (bundled for platform neutral)", async () => {
    const result = await build({
      entryPoints: ["src/redis/index.ts"],
      bundle: true,
      platform: "neutral",
      format: "esm",
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    const imports = Object.values(result.metafile.inputs).flatMap((input) => input.imports.map((i) => i.path));
    // Our own files and @noble/hashes (the digests' declared dependency, whose own imports are listed too).
    const ours = (path: string) => path.startsWith("src/") || path.startsWith("node_modules/@noble/hashes/");
    expect(imports.filter((path) => path.startsWith("node:") || !ours(path))).toEqual([]);
  });
});

describe.skipIf(skip)("redisCoordinator over REST in workerd", () => {
  it("two workers share one partner: ≤ 8 in flight, one sign-in, nothing failed", async () => {
    const api = await startFakeApi();
    let inFlight = 0;
    let most = 0;
    api.route((_req, res) => {
      most = Math.max(most, ++inFlight);
      setTimeout(() => {
        inFlight--;
        json(res, 200, { eid: "e" });
      }, 20);
    });
    const script = await bundleWorker("redis-rest-worker.ts");
    const bindings = { REDIS_REST_URL: front.url, REDIS_REST_TOKEN: TOKEN };
    const workers = [0, 1].map((i) =>
      startMiniflare({ name: `edge-${i}`, modules: true, script, compatibilityDate: COMPATIBILITY_DATE, bindings }),
    );
    try {
      const runs = await Promise.all(
        workers.flatMap((mf) =>
          [0, 1].map(async () => {
            const response = await mf.dispatchFetch(`http://worker/run?base=${encodeURIComponent(api.url)}&calls=12`);
            return (await response.json()) as { failed: number; errors: string[]; away: string[] };
          }),
        ),
      );
      expect(
        runs.reduce((n, r) => n + r.failed, 0),
        JSON.stringify(runs),
      ).toBe(0);
      expect(runs.flatMap((r) => r.away)).toEqual([]);
      expect(api.signIns()).toBe(1);
      expect(most).toBeGreaterThan(1);
      expect(most).toBeLessThanOrEqual(8);
      expect(front.requests.length).toBeGreaterThan(0);
    } finally {
      await Promise.all(workers.map((mf) => mf.dispose()));
      await api.close();
    }
  }, 60_000);
});
