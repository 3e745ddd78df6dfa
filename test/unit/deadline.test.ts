/**
 * Waits and deadlines: `retry.deadlineMs` ends the call at the
 * deadline, attempt in flight included; no option or header can schedule a wait the runtime's
 * timers would fire at once; a timeout after the headers arrived keeps their request id.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createAudienceClient,
  getPartners,
  ingestExcel,
  listEvents,
  paginate,
  poll,
  RateLimitError,
  setClientCampaignStatus,
  TimeoutError,
  unwrap,
  ValidationError,
  waitForClientCampaignStatusTask,
} from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { makeZip, minimalXlsxEntries } from "../support/make-zip.ts";
import { json } from "../support/recording-server.ts";

let api: FakeApi;
afterEach(() => api?.close());

const credentials = { username: "ops@acme.test", password: "pw-deadline-secret" };
const read = (client: ReturnType<typeof createAudienceClient>, eid = "e1") =>
  client.GET("/events/{eid}", { params: { path: { eid } } });
const elapsed = async (work: Promise<unknown>) => {
  const start = performance.now();
  const outcome = await work.catch((e: unknown) => e);
  return { outcome, ms: performance.now() - start };
};

/** Holds every answer of the routed requests until `release` (then answers 200 to each). */
const holdAnswers = () => {
  const pending: Array<() => void> = [];
  api.route((_req, res) => void pending.push(() => json(res, 200, {})));
  return {
    release: () => {
      for (const answer of pending.splice(0)) answer();
    },
  };
};

describe("retry.deadlineMs is a real deadline", () => {
  it("ends the attempt in flight: a 300 ms deadline against a 2 s response fails by ~300 ms", async () => {
    api = await startFakeApi();
    await createAudienceClient({ baseUrl: api.url, credentials }).GET("/status/", {});
    // The server answers only once the call has settled: the call can only end by its deadline
    // (without the fix it waited for the answer). An order, not a duration, so load cannot fail it.
    const held = holdAnswers();
    const client = createAudienceClient({ baseUrl: api.url, credentials, retry: { deadlineMs: 300 } });
    const outcome = await read(client).catch((e: unknown) => e);
    held.release();
    expect(outcome).toBeInstanceOf(TimeoutError);
    expect(String((outcome as Error).message)).toMatch(/deadline of 300 ms/);
  });

  it("covers the wait for a concurrency slot too", async () => {
    api = await startFakeApi();
    // a holds the only slot (the server holds its answer until b settled): b can only end by its
    // deadline while waiting for the slot, never by getting it. b starts once a is at the server,
    // and its deadline (the earlier of the client's and its helper's: one deadline per call) falls
    // far before a's; with equal deadlines a's ran out first on a loaded machine, freed the slot,
    // and b was sent.
    const held = holdAnswers();
    const client = createAudienceClient({
      baseUrl: api.url,
      credentials,
      maxConcurrency: 1,
      retry: { deadlineMs: 10_000 },
    });
    const a = read(client, "a").catch((e: unknown) => e);
    await vi.waitFor(() => expect(api.calls()).toHaveLength(1), { timeout: 5_000 });
    const b = await getPartners(client, { deadlineMs: 100 }).catch((e: unknown) => e);
    const sent = api.calls().map((r) => r.path);
    held.release();
    expect(b).toBeInstanceOf(TimeoutError);
    expect(String((b as Error).message)).toMatch(/deadline of 100 ms/);
    expect(sent).toEqual(["/events/a"]); // b never left
    expect(await a).toMatchObject({ response: { status: 200 } });
  });

  it("does not start a Retry-After wait that would end after the deadline", async () => {
    api = await startFakeApi();
    api.route((_req, res) => json(res, 503, {}, { "retry-after": "5" }));
    const client = createAudienceClient({ baseUrl: api.url, credentials, retry: { deadlineMs: 2_000 } });
    const { outcome, ms } = await elapsed(read(client));
    expect(outcome).toMatchObject({ response: { status: 503 } });
    // Sleeping would have lasted until the 2 s deadline: failing before it proves no wait started.
    expect(ms).toBeLessThan(1_800);
    expect(api.calls()).toHaveLength(1);
  });
});

describe("no timer value can overflow", () => {
  it.each([
    ["timeoutMs", { timeoutMs: 2 ** 31 }],
    ["retry.deadlineMs", { retry: { deadlineMs: 2 ** 31 } }],
    ["retry.maxRetryAfterMs", { retry: { maxRetryAfterMs: 2 ** 40 } }],
    ["retry.maxDelayMs", { retry: { maxDelayMs: 2 ** 31 } }],
    ["retry.baseDelayMs", { retry: { baseDelayMs: 2 ** 31 } }],
    ["retry.rateLimitDelayMs", { retry: { rateLimitDelayMs: [1, 2 ** 31] as const } }],
    ["rateLimitQuietPeriodMs", { rateLimitQuietPeriodMs: 2 ** 31 }],
  ])("refuses %s of 2^31 ms or more at construction, naming it", (name, options) => {
    expect(() =>
      createAudienceClient({ baseUrl: "http://127.0.0.1:9/api/v3", credentials, ...(options as object) }),
    ).toThrow(new RegExp(`option "${name.replace(".", "\\.")}"`));
  });

  // A helper's deadlineMs is refused past the timer range as retry.deadlineMs is: it was taken, and
  // its first call threw the timer's raw RangeError ("a wait of Infinity ms exceeds the timer limit").
  it.each([
    ["Infinity", Number.POSITIVE_INFINITY],
    ["2^31", 2 ** 31],
    ["1e20", 1e20],
  ])("a helper's deadlineMs of %s: a ValidationError naming deadlineMs, nothing sent", async (_name, deadlineMs) => {
    api = await startFakeApi();
    const client = createAudienceClient({ baseUrl: api.url, credentials, partnerId: "partner-id-acme" });
    await setClientCampaignStatus(client, "e1", { status: "ACTIVE" });
    const sentBefore = api.calls().length;
    const never = () => false;
    for (const [helper, run] of [
      ["getPartners", () => getPartners(client, { deadlineMs })],
      ["listEvents", () => listEvents(client, { deadlineMs }).next()],
      ["waitForClientCampaignStatusTask", () => waitForClientCampaignStatusTask(client, "e1", { deadlineMs })],
      ["poll", () => poll({ fetchStatus: async () => ({}), isDone: never, intervalMs: 10, deadlineMs })],
      ["paginate", () => paginate({ fetchPage: async () => ({ items: [] }), limit: 10, deadlineMs }).next()],
      ["setupProcess(eid).flush", () => client.setupProcess("e1").flush({ deadlineMs })],
      ["ingestExcel", () => ingestExcel(client, "e1", makeZip(minimalXlsxEntries()), { deadlineMs })],
    ] as const) {
      const error = await Promise.resolve()
        .then(run)
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error, helper).toBeInstanceOf(ValidationError);
      expect(
        (error as ValidationError).issues.map((i) => i.field),
        helper,
      ).toEqual(["deadlineMs"]);
      expect((error as ValidationError).message, helper).toMatch(/at most 2147483647/);
    }
    expect(api.calls()).toHaveLength(sentBefore);
  });

  it("a Retry-After beyond any timer, with the ceiling raised to the most a timer allows, fails at once", async () => {
    api = await startFakeApi();
    api.route((_req, res) => json(res, 429, {}, { "retry-after": "99999999999" }));
    const client = createAudienceClient({
      baseUrl: api.url,
      credentials,
      retry: { maxRetryAfterMs: 2 ** 31 - 1 },
    });
    const result = await read(client);
    expect(result.response.status).toBe(429);
    expect(api.calls()).toHaveLength(1); // 5 attempts in 230 ms before
  });
});

describe("errors keep what support needs", () => {
  it("a TimeoutError after the headers arrived keeps their x-request-id", async () => {
    api = await startFakeApi();
    api.route((_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "x-request-id": "req-slow-body" });
      res.write('{"partial":');
      // the rest never comes
    });
    const client = createAudienceClient({ baseUrl: api.url, credentials, timeoutMs: 150, retry: { maxAttempts: 1 } });
    const error = await read(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ requestId: "req-slow-body" });
    expect(String((error as Error).message)).toContain("req-slow-body");
  });

  it("the 429 error carries the wait the server asked for", async () => {
    api = await startFakeApi();
    api.route((_req, res) => json(res, 429, {}, { "retry-after": "120" }));
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    const result = await read(client);
    const error = (() => {
      try {
        unwrap(result);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfterMs: 120_000, attempts: 1 });
    expect(String((error as Error).message)).toContain("the server asked to wait 120 s");
  });
});
