import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createAudienceClient,
  NetworkError,
  RateLimitError,
  ServerError,
  TimeoutError,
  unwrap,
} from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { freePort } from "../support/free-port.ts";
import { json } from "../support/recording-server.ts";

let api: FakeApi;
afterEach(() => api?.close());

const credentials = { username: "ops@acme.test", password: "pw-retry-secret" };
const fast = { baseDelayMs: 1, maxDelayMs: 5, rateLimitDelayMs: [1, 3] as const };
/**
 * The waits the client decided on (its "retrying" log), in order. The bounds of a wait are
 * asserted on that decision, exactly; the wall clock only checks that the wait really happened
 * (a gap at least the decision) and that nothing waited far longer (a second of slack: a loaded
 * machine delays timers, never shortens them).
 */
function loggedWaits() {
  const waits: number[] = [];
  const logger = {
    info: (message: string, details?: Record<string, unknown>) => {
      if (message === "retrying") waits.push(details?.waitMs as number);
    },
  };
  return { waits, logger };
}
const SLACK_MS = 1_000;

const readEvent = (client: ReturnType<typeof createAudienceClient>, eid = "e1", signal?: AbortSignal) =>
  client.GET("/events/{eid}", { params: { path: { eid } }, ...(signal ? { signal } : {}) });

describe("retry (Section 8.2–8.3)", () => {
  it("makes exactly 5 attempts on a persistent 503, then fails with ServerError carrying the request id", async () => {
    api = await startFakeApi();
    api.route((_req, res) => json(res, 503, { code: "error.unavailable" }, { "x-request-id": "req-503" }));
    const client = createAudienceClient({ baseUrl: api.url, credentials, retry: fast });
    const result = await readEvent(client);
    expect(api.calls()).toHaveLength(5);
    const error = (() => {
      try {
        unwrap(result);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 503, requestId: "req-503", attempts: 5, code: "error.unavailable" });
  });

  it("honours a lower maxAttempts and refuses more than 5", async () => {
    api = await startFakeApi();
    api.route((_req, res) => json(res, 500, {}));
    const client = createAudienceClient({ baseUrl: api.url, credentials, retry: { ...fast, maxAttempts: 2 } });
    await readEvent(client);
    expect(api.calls()).toHaveLength(2);
    expect(() => createAudienceClient({ baseUrl: api.url, credentials, retry: { maxAttempts: 6 } })).toThrow(
      /retry\.maxAttempts.*at most 5/,
    );
  });

  it("recovers when a retry succeeds, for each retryable status", async () => {
    api = await startFakeApi();
    for (const status of [429, 500, 502, 503, 504]) {
      let n = 0;
      api.route((_req, res) => json(res, ++n === 1 ? status : 200, { n }));
      const client = createAudienceClient({ baseUrl: api.url, credentials, retry: fast });
      const result = await readEvent(client);
      expect(result.data).toEqual({ n: 2 });
    }
  });

  it("does not retry other statuses", async () => {
    api = await startFakeApi();
    api.route((_req, res) => json(res, 400, {}));
    const client = createAudienceClient({ baseUrl: api.url, credentials, retry: fast });
    await readEvent(client);
    expect(api.calls()).toHaveLength(1);
  });

  it("waits inside [0.7·d, d] with d = min(cap, base·2^(k−1))", async () => {
    api = await startFakeApi();
    api.route((_req, res) => json(res, 502, {}));
    const base = 60;
    const { waits, logger } = loggedWaits();
    const client = createAudienceClient({
      baseUrl: api.url,
      credentials,
      logger,
      retry: { baseDelayMs: base, maxDelayMs: 200, maxAttempts: 4 },
    });
    await readEvent(client);
    const times = api.calls().map((r) => r.receivedAt);
    const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
    const ds = [60, 120, 200]; // k = 1, 2, 3 (the third capped at 200)
    expect(waits).toHaveLength(3);
    expect(gaps).toHaveLength(3);
    waits.forEach((wait, i) => {
      const d = ds[i] as number;
      expect(wait).toBeGreaterThanOrEqual(Math.floor(0.7 * d));
      expect(wait).toBeLessThanOrEqual(d);
      expect(gaps[i]).toBeGreaterThanOrEqual(wait - 2);
      expect(gaps[i]).toBeLessThanOrEqual(wait + SLACK_MS);
    });
  });

  it("honours Retry-After in seconds and as an HTTP-date, without jitter", async () => {
    api = await startFakeApi();
    let n = 0;
    api.route((_req, res) => (++n === 1 ? json(res, 429, {}, { "retry-after": "1" }) : json(res, 200, {})));
    const { waits, logger } = loggedWaits();
    const client = createAudienceClient({ baseUrl: api.url, credentials, logger, retry: fast });
    await readEvent(client);
    let [a, b] = api.calls().map((r) => r.receivedAt);
    expect((b as number) - (a as number)).toBeGreaterThanOrEqual(995);

    api.resetStats();
    n = 0;
    api.route((_req, res) =>
      ++n === 1 ? json(res, 503, {}, { "retry-after": new Date(Date.now() + 2000).toUTCString() }) : json(res, 200, {}),
    );
    waits.length = 0;
    await readEvent(client, "e2");
    [a, b] = api.calls().map((r) => r.receivedAt);
    // An HTTP-date has 1 s resolution: the wait is between 1 and 2 s.
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(990);
    expect(waits[0]).toBeLessThanOrEqual(2000);
    expect((b as number) - (a as number)).toBeGreaterThanOrEqual((waits[0] as number) - 10);
    expect((b as number) - (a as number)).toBeLessThanOrEqual((waits[0] as number) + SLACK_MS);
  });

  it("fails at once with RateLimitError when Retry-After exceeds the ceiling", async () => {
    api = await startFakeApi();
    api.route((_req, res) => json(res, 429, {}, { "retry-after": "120", "x-request-id": "req-429" }));
    const client = createAudienceClient({ baseUrl: api.url, credentials, retry: fast });
    const error = await readEvent(client)
      .then(unwrap)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfterMs: 120_000, requestId: "req-429", attempts: 1 });
    expect(api.calls()).toHaveLength(1);
  });

  it("waits within the configured window after a 429 without Retry-After", async () => {
    api = await startFakeApi();
    let n = 0;
    api.route((_req, res) => json(res, ++n === 1 ? 429 : 200, {}));
    const { waits, logger } = loggedWaits();
    const client = createAudienceClient({
      baseUrl: api.url,
      credentials,
      logger,
      retry: { rateLimitDelayMs: [150, 250] },
    });
    await readEvent(client);
    const [a, b] = api.calls().map((r) => r.receivedAt);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(150);
    expect(waits[0]).toBeLessThanOrEqual(250);
    expect((b as number) - (a as number)).toBeGreaterThanOrEqual(148);
    expect((b as number) - (a as number)).toBeLessThanOrEqual((waits[0] as number) + SLACK_MS);
  });

  it("an abort during a retry wait rejects at once and sends nothing more", async () => {
    api = await startFakeApi();
    api.route((_req, res) => json(res, 503, {}));
    const client = createAudienceClient({ baseUrl: api.url, credentials, retry: { baseDelayMs: 5_000 } });
    const controller = new AbortController();
    const pending = readEvent(client, "e1", controller.signal);
    // Abort once the first attempt reached the server (a fixed 100 ms sometimes fell before it on
    // a loaded machine, sign-in included). "At once": well below the shortest retry wait, 0.7 × 5 s.
    await vi.waitFor(() => expect(api.calls()).toHaveLength(1), { timeout: 5_000 });
    const aborted = Date.now();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    expect(Date.now() - aborted).toBeLessThan(3_000);
    await new Promise((r) => setTimeout(r, 50));
    expect(api.calls()).toHaveLength(1);
  });

  it("times out slow attempts and ends with TimeoutError", async () => {
    api = await startFakeApi();
    api.route((_req, res) => void setTimeout(() => json(res, 200, {}), 300));
    const client = createAudienceClient({
      baseUrl: api.url,
      credentials,
      timeoutMs: 30,
      retry: { ...fast, maxAttempts: 3 },
    });
    const error = await readEvent(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ attempts: 3 });
    expect(api.calls()).toHaveLength(3);
  });

  it("stops retrying when the overall deadline cannot be met", async () => {
    api = await startFakeApi();
    api.route((_req, res) => json(res, 503, {}));
    const client = createAudienceClient({
      baseUrl: api.url,
      credentials,
      retry: { baseDelayMs: 200, deadlineMs: 300 },
    });
    await readEvent(client);
    expect(api.calls().length).toBeLessThanOrEqual(2);
  });

  it("retries a refused connection (nothing was sent), even for a write that is never repeated", async () => {
    const port = await freePort();
    const client = createAudienceClient({
      baseUrl: `http://127.0.0.1:${port}/api/v3`,
      session: { accessToken: "t-unused-1234", idToken: "id-token-unused" },
      partnerId: "partner-id-acme",
      retry: { ...fast, maxAttempts: 3 },
    });
    const error = await client.POST("/campaigns/", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ attempts: 3, mayHaveSucceeded: false });
  });
});

describe("writes that are not idempotent (Section 3 rule 3)", () => {
  const payload = { goal: "ROAS" as const, total_budget: 500, start_date: "2027-01-01", end_date: "2027-01-31" };

  it("POST /setup_processes/{eid}: after an ambiguous 503, a draft found by GET resolves as created; the POST is not repeated", async () => {
    api = await startFakeApi();
    const drafts = new Map<string, unknown>();
    api.route((req, res) => {
      if (req.method === "POST") {
        drafts.set(req.path, JSON.parse(req.body)); // applied, yet the answer is lost
        return json(res, 503, {}, { "x-request-id": "req-post" });
      }
      return drafts.has(req.path) ? json(res, 200, drafts.get(req.path)) : json(res, 404, {});
    });
    const client = createAudienceClient({ baseUrl: api.url, credentials, retry: fast });
    const result = await client.POST("/setup_processes/{eid}", { params: { path: { eid: "e1" } }, body: payload });
    expect(result.data).toEqual(payload);
    expect(api.calls().filter((r) => r.method === "POST")).toHaveLength(1);
    expect(api.calls().filter((r) => r.method === "GET")).toHaveLength(1);
  });

  it("POST /setup_processes/{eid}: a 404 on the check repeats the POST", async () => {
    api = await startFakeApi();
    let posts = 0;
    api.route((req, res) =>
      req.method === "POST" ? json(res, ++posts === 1 ? 429 : 201, { created: posts }) : json(res, 404, {}),
    );
    const client = createAudienceClient({ baseUrl: api.url, credentials, retry: fast });
    const result = await client.POST("/setup_processes/{eid}", { params: { path: { eid: "e1" } }, body: payload });
    expect(result.response.status).toBe(201);
    expect(posts).toBe(2);
  });

  it("POST /campaigns/ is never repeated after a 5xx; the error says the write may have happened", async () => {
    api = await startFakeApi();
    api.route((_req, res) => json(res, 502, {}, { "x-request-id": "req-campaign" }));
    const client = createAudienceClient({ baseUrl: api.url, credentials, retry: fast });
    const error = await client
      .POST("/campaigns/", { params: { query: { params: { name: "x" } } } })
      .then(unwrap)
      .catch((e: unknown) => e);
    expect(api.calls()).toHaveLength(1);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ mayHaveSucceeded: true, requestId: "req-campaign" });
    expect((error as Error).message).toMatch(/may have happened/);
  });

  it("POST /campaigns/ is not repeated after a timeout either", async () => {
    api = await startFakeApi();
    // The answer comes only after the client gave up. The timeout leaves ample time for the request
    // to arrive on a loaded machine (with 30 ms it sometimes timed out before the server saw it,
    // and no call at all proves nothing about repeating one).
    let answer: (() => void) | undefined;
    api.route((_req, res) => {
      answer = () => json(res, 200, {});
    });
    const client = createAudienceClient({ baseUrl: api.url, credentials, timeoutMs: 1_000, retry: fast });
    const error = await client.POST("/campaigns/", {}).catch((e: unknown) => e);
    answer?.();
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ mayHaveSucceeded: true });
    expect(api.calls()).toHaveLength(1);
  });
});

describe("pacing never makes the client slower than the specification's own rules", () => {
  it("12 calls refused once with Retry-After: 0 finish at once with pacing on, as with it off", async () => {
    api = await startFakeApi();
    const refused = new Set<string>();
    api.route((req, res) => {
      if (!refused.has(req.path)) {
        refused.add(req.path);
        return json(res, 429, {}, { "retry-after": "0" });
      }
      json(res, 200, {});
    });
    const client = createAudienceClient({ baseUrl: api.url, credentials }); // ratePacing defaults to on
    await client.GET("/status/", {});
    const start = performance.now();
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => readEvent(client, `e${i}`)));
    const ms = performance.now() - start;
    expect(results.every((r) => r.response.status === 200)).toBe(true);
    expect(api.calls().filter((r) => r.path.startsWith("/events/"))).toHaveLength(24);
    expect(ms).toBeLessThan(2_000); // 30 s before: the pacer spaced the retries 2 s apart
  });
});

describe("one retry-by-method rule", () => {
  it.each([
    ["GET", "repeatable"],
    ["HEAD", "repeatable"],
    ["OPTIONS", "repeatable"],
    ["TRACE", "repeatable"], // idempotent (RFC 9110); the transport's own copy used to say never
    ["PUT", "repeatable"],
    ["DELETE", "repeatable"],
    ["POST", "never"],
    ["PATCH", "never"],
  ])("%s → %s (the table's default and the transport's fallback are one function)", async (method, expected) => {
    const { defaultRetry } = await import("../../generated/operations.ts");
    expect(defaultRetry(method)).toBe(expected);
  });
});
