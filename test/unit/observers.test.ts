/**
 * Observers never change outcomes, and a caller's signal costs one listener: a logger that throws
 * does not fail a call, an after-hook that throws does not turn a completed write into an untyped
 * rejection, and 50 calls sharing one AbortSignal raise no MaxListenersExceededWarning.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createClientWithSeams } from "../../src/create-client.ts";
import { createAudienceClient } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { idleLoad } from "../support/partner-keys.ts";
import { json } from "../support/recording-server.ts";

let api: FakeApi;
afterEach(() => api?.close());

const credentials = { username: "ops@acme.test", password: "pw-observer-secret" };
const boom = () => {
  throw new Error("logger exploded");
};

describe("observers never change outcomes", () => {
  it("a logger whose every method throws changes nothing, retries included", async () => {
    api = await startFakeApi();
    let n = 0;
    api.route((_req, res) => json(res, ++n === 1 ? 503 : 200, { n }));
    const client = createAudienceClient({
      baseUrl: api.url,
      credentials,
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
      logger: { debug: boom, info: boom, warn: boom },
    });
    const result = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    expect(result.data).toEqual({ n: 2 });
    api.route((_req, res) => json(res, 404, {}));
    expect((await client.GET("/events/{eid}", { params: { path: { eid: "e2" } } })).response.status).toBe(404);
  });

  it("an after-hook that throws leaves a completed POST /campaigns/ completed", async () => {
    api = await startFakeApi();
    api.route((_req, res) => json(res, 201, { id: "c-1" }));
    const client = createClientWithSeams(
      { baseUrl: api.url, credentials },
      {
        hooks: [
          {
            after: () => {
              throw new Error("hook exploded");
            },
          },
        ],
      },
    );
    const result = await client.POST("/campaigns/", { params: { query: { params: { eid: "e1" } } } as never });
    expect(result.response.status).toBe(201);
    expect(result.data).toEqual({ id: "c-1" });
  });
});

describe("a coordinator of the user's whose Turn.done throws (it only reports how an attempt ended)", () => {
  const outcomes: string[] = [];
  const coordinator = {
    partner: () => ({
      turn: () => ({
        slotWaitMs: undefined,
        paceWaitMs: undefined,
        done: (outcome: { kind: string }) => {
          outcomes.push(outcome.kind);
          throw new Error("done exploded");
        },
      }),
      load: () => idleLoad,
    }),
  };
  const make = (baseUrl: string) =>
    createAudienceClient({
      baseUrl,
      session: { accessToken: "t-done" },
      partnerId: "partner-a",
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
      coordinator,
    });

  it("leaves a completed POST /campaigns/ completed: a rejection would invite a repeat of the write", async () => {
    api = await startFakeApi();
    api.route((_req, res) => json(res, 201, { id: "c-1" }));
    outcomes.length = 0;
    const result = await make(api.url).POST("/campaigns/", { params: { query: { params: { eid: "e1" } } } as never });
    expect(result.response.status).toBe(201);
    expect(result.data).toEqual({ id: "c-1" });
    expect(outcomes).toEqual(["admitted"]);
  });

  it("retries a 503 and a 429 as ever, and a read completes", async () => {
    api = await startFakeApi();
    let n = 0;
    api.route((_req, res) => (++n === 1 ? json(res, 503, {}) : n === 2 ? json(res, 429, {}) : json(res, 200, { n })));
    outcomes.length = 0;
    const result = await make(api.url).GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    expect(result.data).toEqual({ n: 3 });
    expect(outcomes).toEqual(["admitted", "rate-limited", "admitted"]);
  });

  it("a network failure stays a NetworkError", async () => {
    outcomes.length = 0;
    const error = await make("http://127.0.0.1:1/api/v3")
      .GET("/events/{eid}", { params: { path: { eid: "e1" } } })
      .catch((e: unknown) => e);
    expect((error as Error).name).toBe("NetworkError");
    expect(outcomes.every((kind) => kind === "no-response")).toBe(true);
  });
});

describe("observers that return a promise that rejects (async functions)", () => {
  /** Rejections no one handled while the calls ran: Node ends a process on one by default. */
  const escaped: unknown[] = [];
  const onEscaped = (reason: unknown) => escaped.push(reason);
  beforeEach(() => {
    escaped.length = 0;
    process.on("unhandledRejection", onEscaped);
  });
  afterEach(() => {
    process.off("unhandledRejection", onEscaped);
  });
  const rejects = async () => {
    throw new Error("async observer exploded");
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 1_200));

  it.each([
    ["a logger whose methods are async", { logger: { debug: rejects, info: rejects, warn: rejects } }],
    ["an async onRateStateChange", { onRateStateChange: rejects }],
    ["an async onDrift", { onDrift: rejects }],
  ])("%s: calls succeed, retries included, and no rejection escapes", async (_label, observers) => {
    api = await startFakeApi();
    let n = 0;
    // Every other answer a 503 (a retry, a warning, a rate state); each 200 shows a field the
    // description does not have (a drift report).
    api.route((_req, res) => json(res, ++n % 2 === 1 ? 503 : 200, { n, notInTheDescription: true }));
    const client = createAudienceClient({
      baseUrl: api.url,
      credentials,
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
      ...(observers as object),
    });
    for (const eid of ["e1", "e2", "e3"]) {
      const result = await client.GET("/events/{eid}", { params: { path: { eid } } });
      expect(result.response.status).toBe(200);
    }
    await settle();
    expect(escaped).toEqual([]);
  });
});

describe("one listener per caller signal", () => {
  it("50 calls sharing one AbortSignal raise no MaxListenersExceededWarning, and all abort together", async () => {
    api = await startFakeApi();
    api.route((_req, res) => void setTimeout(() => json(res, 200, {}), 300));
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    await client.GET("/status/", {});
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on("warning", onWarning);
    try {
      const controller = new AbortController();
      const calls = Array.from({ length: 50 }, (_, i) =>
        client
          .GET("/events/{eid}", { params: { path: { eid: `e${i}` } }, signal: controller.signal })
          .catch((e: unknown) => e),
      );
      await new Promise((r) => setTimeout(r, 50));
      controller.abort(new Error("stop"));
      const outcomes = await Promise.all(calls);
      expect(outcomes.every((o) => o instanceof Error && o.message === "stop")).toBe(true);
      await new Promise((r) => setImmediate(r));
      expect(warnings).not.toContain("MaxListenersExceededWarning");
      expect(client.concurrency()).toMatchObject({ active: 0, queued: 0 });
    } finally {
      process.off("warning", onWarning);
    }
  });
});
