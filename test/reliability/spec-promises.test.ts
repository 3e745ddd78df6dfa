/**
 * The promises, not the constants. Each expectation here is the specification's number written as
 * a literal, with its section, so that changing the code under the promise — or the constant it
 * reads — fails a test; a test that computes its expectation from the same constant would follow
 * the change. Every client here keeps its DEFAULT retry options (no `retry` option): the waits and
 * the attempt cap are the client's own, randomness injected where a wait is drawn.
 * docs/RELIABILITY.md lists how each was broken on purpose.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createClientWithSeams } from "../../src/create-client.ts";
import { createAudienceClient, type DriftReport, ValidationError } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json, type RecordingServer, startRecordingServer } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

let api: FakeApi | undefined;
let server: RecordingServer | undefined;
afterEach(async () => {
  await api?.close();
  await server?.close();
  api = undefined;
  server = undefined;
  vi.useRealTimers();
});

const credentials = { username: "ops@acme.test", password: "pw-promises-Zk9+/_-" };
const eventCall = { params: { path: { eid: "e1" } } } as const;

describe("Section 5 and 8.2: a 401 is renewed and replayed once", () => {
  it("a server that keeps answering 401 gets 2 requests and 1 refresh, not 5 and 4", async () => {
    api = await startFakeApi();
    api.route((_req, res) => json(res, 401, { message: "error.auth.expired" }));
    const client = createAudienceClient({ baseUrl: api.url, credentials }); // default retry: 5 attempts
    const { response } = await client.GET("/events/{eid}", eventCall);
    expect(response.status).toBe(401);
    expect(api.calls()).toHaveLength(2); // the call and its one replay
    expect(api.refreshes()).toBe(1);
    expect(api.signIns()).toBe(1);
  });
});

describe("Section 8.3 through the client with its default retry options", () => {
  async function waitsFor(statuses: number[], random: number): Promise<number[]> {
    let n = 0;
    server = await startRecordingServer((_req, res) => {
      const status = statuses[n++] ?? 200;
      json(res, status, status === 200 ? { id: "e1" } : { code: "x" });
    });
    const waits: number[] = [];
    const t = makeTokens();
    const client = createClientWithSeams(
      { baseUrl: server.url, session: { accessToken: t.AccessToken, idToken: t.IdToken }, ratePacing: false },
      { retryHooks: { random: () => random, sleep: async (ms: number) => void waits.push(ms) } },
    );
    const { response } = await client.GET("/events/{eid}", eventCall);
    expect(response.status).toBe(200);
    return waits;
  }

  it("backoff: base 500 ms, doubling (no jitter drawn: 500, 1000, 2000)", async () => {
    expect(await waitsFor([503, 500, 502], 0)).toEqual([500, 1000, 2000]);
  });

  it("backoff: jitter takes up to 30 % off (the largest draw: 350, 700)", async () => {
    const waits = await waitsFor([503, 503], 0.999_999);
    expect(waits[0]).toBeCloseTo(350, 2);
    expect(waits[1]).toBeCloseTo(700, 2);
  });

  it("a 429 without Retry-After waits 5 to 10 s (draws 0 and ~1)", async () => {
    expect(await waitsFor([429], 0)).toEqual([5000]);
    await server?.close();
    const high = await waitsFor([429], 0.999_999);
    expect(high[0]).toBeCloseTo(10_000, 1);
  });

  it("no more than 5 attempts (Section 8.2)", async () => {
    let n = 0;
    server = await startRecordingServer((_req, res) => json(res, 503, { n: n++ }));
    const t = makeTokens();
    const client = createClientWithSeams(
      { baseUrl: server.url, session: { accessToken: t.AccessToken, idToken: t.IdToken } },
      { retryHooks: { random: () => 0, sleep: async () => undefined } },
    );
    await client.GET("/events/{eid}", eventCall).catch(() => undefined);
    expect(server.requests).toHaveLength(5);
  });

  it("measured on a real server with real timers and Math.random: the first retry comes 350–500 ms after a 503", async () => {
    let n = 0;
    server = await startRecordingServer((_req, res) => json(res, n++ === 0 ? 503 : 200, { id: "e1" }));
    const t = makeTokens();
    const client = createAudienceClient({
      baseUrl: server.url,
      session: { accessToken: t.AccessToken, idToken: t.IdToken },
    });
    await client.GET("/events/{eid}", eventCall);
    const [first, second] = server.requests;
    const gap = (second?.receivedAt ?? 0) - (first?.receivedAt ?? 0);
    expect(gap).toBeGreaterThanOrEqual(350 - 5); // 500 ms less at most 30 % (timer granularity: 5 ms)
    expect(gap).toBeLessThan(500 + 250); // plus the time to answer, on a loaded machine
  });
});

describe("Section 3 and 8.5: autosaves are debounced 1 s", () => {
  it("through the client, default debounce: nothing at 999 ms, the PUT at 1000 ms", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const puts: string[] = [];
    const t = makeTokens();
    const client = createAudienceClient({
      baseUrl: "http://127.0.0.1:9/api/v3",
      session: { accessToken: t.AccessToken, idToken: t.IdToken },
      fetch: async (request) => {
        if (request.method === "PUT") puts.push(await request.text());
        return Response.json({}, { status: 200 });
      },
    });
    const setup = client.setupProcess("e1");
    const saved = setup.autosave({ goal: "ROAS", total_budget: 1 });
    await vi.advanceTimersByTimeAsync(999);
    expect(puts).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(puts).toHaveLength(1));
    await saved;
  });
});

describe("Section 8.5: bulk reads page; the page cap is 100 (the client's documented maxPageLimit default)", () => {
  it("limit=101 is refused before anything is sent; limit=100 is sent", async () => {
    server = await startRecordingServer((_req, res) => json(res, 200, { items: [] }));
    const t = makeTokens();
    const client = createAudienceClient({
      baseUrl: server.url,
      session: { accessToken: t.AccessToken, idToken: t.IdToken },
    });
    for (const limit of [101, "101", [10, 101]] as const) {
      const error = await client
        .GET("/events/", { params: { query: { page: 1, limit: limit as never } } })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
    }
    const raw = await client
      .GET("/campaigns/" as never, { params: { query: { limit: 101 } } } as never)
      .catch((e: unknown) => e);
    expect(raw).toBeInstanceOf(ValidationError);
    expect(server.requests).toHaveLength(0);
    await client.GET("/events/", { params: { query: { page: 1, limit: 100 } } });
    expect(server.requests.map((r) => r.query.get("limit"))).toEqual(["100"]);
  });
});

describe("onDrift samples 1 % after the first response of a kind (the documented driftSampleRate default)", () => {
  it("with the sampling draws injected: 0.0099 is checked; 0.01, 0.05 and 0.5 are not", async () => {
    server = await startRecordingServer((_req, res) => json(res, 200, { total_unread: "three" }));
    const draws = [0.05, 0.0099, 0.01, 0.5, 0.099];
    const reports: DriftReport[] = [];
    const t = makeTokens();
    const client = createClientWithSeams(
      {
        baseUrl: server.url,
        session: { accessToken: t.AccessToken, idToken: t.IdToken },
        onDrift: (r) => reports.push(r),
      },
      { driftRandom: () => draws.shift() ?? 1 },
    );
    for (let i = 0; i < 6; i++) await client.GET("/messages/totalunread");
    await vi.waitFor(() => expect(reports.length).toBeGreaterThanOrEqual(2));
    await new Promise((r) => setTimeout(r, 50));
    expect(draws).toEqual([]); // one draw per response after the first
    expect(reports).toHaveLength(2); // the first, and the draw of 0.0099
  });
});
