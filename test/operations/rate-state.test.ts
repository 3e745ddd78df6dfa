/**
 * `client.rateState()`, the snapshot a RateLimitError carries (and its support
 * report), and `onRateStateChange`, against real local servers.
 */
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import type { Coordinator, PartnerLoad } from "../../src/coordination/index.ts";
import {
  type AudienceClientOptions,
  createAudienceClient,
  RateLimitError,
  type RateState,
  unwrap,
} from "../../src/index.ts";
import { idleLoad } from "../support/partner-keys.ts";
import { json, type RecordingServer, startRecordingServer } from "../support/recording-server.ts";
import { startSkewedApi } from "../support/skewed-api.ts";
import { makeTokens } from "../support/tokens.ts";

let server: RecordingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Waits until `done`, polling every 10 ms, at most about 5 s. */
const until = async (done: () => boolean) => {
  for (let waited = 0; !done() && waited < 5000; waited += 10) await new Promise((r) => setTimeout(r, 10));
};

/**
 * A coordinator whose partner state comes from `loadAt(now, rateLimitedAt)`, on a clock that moves
 * only when the state is read (`step` ms per read): which read first sees a change is then exact.
 * Every turn is free at once; a 429 sets `rateLimitedAt`.
 */
function scriptedCoordinator(step: number, loadAt: (now: number, rateLimitedAt: number) => Partial<PartnerLoad>) {
  let now = 0;
  let rateLimitedAt = Number.NEGATIVE_INFINITY;
  const coordinator: Coordinator = {
    partner: () => ({
      turn: () => ({
        slotWaitMs: undefined,
        paceWaitMs: undefined,
        done: (outcome) => {
          if (outcome.kind === "rate-limited") rateLimitedAt = now;
        },
      }),
      load: () => {
        now += step;
        return { ...idleLoad, ...loadAt(now, rateLimitedAt) };
      },
    }),
  };
  return coordinator;
}

const sessionOf = () => {
  const t = makeTokens();
  return { accessToken: t.AccessToken, refreshToken: t.RefreshToken, idToken: t.IdToken };
};

describe("client.rateState()", () => {
  it("is a plain snapshot: the defaults before any call", () => {
    const client = createAudienceClient({ baseUrl: "http://127.0.0.1:9/api/v3", session: sessionOf() });
    expect(client.rateState()).toEqual({
      partnerId: undefined,
      inFlight: 0,
      queued: { interactive: 0, background: 0 },
      concurrencyLimit: 8,
      pace: null,
      coolDownUntil: null,
      clockSkewMs: 0,
    });
  });

  it("counts calls in flight and queued per lane", async () => {
    const held: ServerResponse[] = [];
    server = await startRecordingServer((req, res) =>
      req.path === "/events/warm" ? json(res, 200, {}) : void held.push(res),
    );
    const client = createAudienceClient({
      baseUrl: server.url,
      partnerId: "acme",
      maxConcurrency: 1,
      session: sessionOf(),
    });
    await client.GET("/events/{eid}", { params: { path: { eid: "warm" } } }); // the session is current
    const calls = [
      client.GET("/events/{eid}", { params: { path: { eid: "a" } } }),
      client.GET("/events/{eid}", { params: { path: { eid: "b" } }, priority: "low" }),
      client.GET("/events/{eid}", { params: { path: { eid: "c" } } }),
    ];
    while (held.length < 1) await new Promise((r) => setTimeout(r, 5));
    expect(client.rateState()).toMatchObject({
      partnerId: "acme",
      inFlight: 1,
      queued: { interactive: 1, background: 1 },
      concurrencyLimit: 1,
    });
    const drain = setInterval(() => {
      for (const res of held.splice(0)) json(res, 200, {});
    }, 5);
    await Promise.all(calls);
    clearInterval(drain);
    expect(client.rateState()).toMatchObject({ inFlight: 0, queued: { interactive: 0, background: 0 } });
  });

  it("shows the clock skew learned from Date headers", async () => {
    const api = await startSkewedApi({ skewMs: 600_000 });
    try {
      const client = createAudienceClient({
        baseUrl: api.baseUrl,
        credentials: { username: "u", password: "pw-skew" },
      });
      await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
      expect(Math.abs(client.rateState().clockSkewMs - 600_000)).toBeLessThanOrEqual(1000);
    } finally {
      await api.close();
    }
  });
});

describe("after a 429", () => {
  it("the cap drops, the cool-down shows, and the RateLimitError carries the snapshot into its report", async () => {
    server = await startRecordingServer((_req, res) =>
      json(res, 429, { message: "slow down" }, { "retry-after": "30" }),
    );
    const client = createAudienceClient({
      baseUrl: server.url,
      partnerId: "acme",
      session: sessionOf(),
      retry: { maxRetryAfterMs: 1000 },
    });
    const before = Date.now();
    const error = await client
      .GET("/events/{eid}", { params: { path: { eid: "e1" } } })
      .then(unwrap)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    const state = (error as RateLimitError).rateState as RateState;
    expect(state).toMatchObject({ partnerId: "acme", concurrencyLimit: 4, inFlight: 0, pace: null });
    expect(state.coolDownUntil).toBeGreaterThanOrEqual(before + 30_000);
    expect(state.coolDownUntil).toBeLessThanOrEqual(Date.now() + 30_000);
    expect((error as RateLimitError).supportReport()).toMatch(/rate state: {3}0 in flight of 4.*cool-down until 20/);
    expect(JSON.parse(JSON.stringify(error)).rateState).toEqual(state);
    expect(client.rateState()).toMatchObject({ concurrencyLimit: 4, coolDownUntil: state.coolDownUntil });
  });

  it("onRateStateChange: called when the cap or cool-down changes and when it returns, never for a 200, never throwing into a call", async () => {
    let status = 200;
    server = await startRecordingServer((_req, res) =>
      json(res, status, {}, status === 429 ? { "retry-after": "0" } : {}),
    );
    const seen: RateState[] = [];
    const warnings: string[] = [];
    const client = createAudienceClient({
      baseUrl: server.url,
      partnerId: "acme",
      session: sessionOf(),
      rateLimitQuietPeriodMs: 600,
      retry: { maxAttempts: 1 },
      logger: { warn: (m: string) => warnings.push(m) },
      onRateStateChange: (state) => {
        seen.push(state);
        throw new Error("observer bug");
      },
    });
    const get = () => client.GET("/events/{eid}", { params: { path: { eid: "e" } } });
    await get();
    await get();
    await until(() => seen.length >= 1);
    await new Promise((r) => setTimeout(r, 300)); // a second report would come by now
    expect(seen).toEqual([expect.objectContaining({ concurrencyLimit: 8, coolDownUntil: null })]); // the baseline
    status = 429;
    const { error } = await get(); // the observer throws: the call still ends as the API answered
    expect(error).toBeDefined();
    await until(() => seen.length >= 2);
    expect(seen[1]).toMatchObject({ concurrencyLimit: 4 });
    // The quiet period ends: the return to 8 is reported without another response.
    await until(() => seen.length >= 3);
    expect(seen[2]).toMatchObject({ concurrencyLimit: 8 });
    expect(warnings.some((w) => w.includes("onRateStateChange threw"))).toBe(true);
  });

  /** A client of acme on the test's server, one attempt per call: its reports and warnings. */
  const watched = (options: Partial<AudienceClientOptions> = {}) => {
    const seen: RateState[] = [];
    const warnings: string[] = [];
    const client = createAudienceClient({
      baseUrl: (server as RecordingServer).url,
      partnerId: "acme",
      session: sessionOf(),
      retry: { maxAttempts: 1 },
      logger: { warn: (m: string) => warnings.push(m) },
      onRateStateChange: (state) => seen.push(state),
      ...options,
    });
    const get = () => client.GET("/events/{eid}", { params: { path: { eid: "e" } } });
    return { get, seen, warnings };
  };

  it("onRateStateChange: the end of a quiet period is reported even when it ends between two reads of the state", async () => {
    // The quiet period is 10 ms of a clock that moves 1 ms per read: for one of the two lengths it
    // ends between two reads of one check, whatever the number of reads before.
    server = await startRecordingServer((_req, res) => json(res, 429, {}, { "retry-after": "0" }));
    for (const quietMs of [10, 11]) {
      const { get, seen } = watched({
        coordinator: scriptedCoordinator(1, (now, at) => ({
          concurrencyLimit: now - at < quietMs ? 4 : 8,
          quietLeftMs: Math.max(0, at + quietMs - now),
        })),
      });
      await get();
      await until(() => seen.length >= 2);
      expect(
        seen.map((s) => s.concurrencyLimit),
        `quiet period of ${quietMs}`,
      ).toEqual([4, 8]);
    }
  });

  it("onRateStateChange: the end of a cool-down that outlasts the quiet period is reported without another response", async () => {
    server = await startRecordingServer((_req, res) => json(res, 429, {}, { "retry-after": "1" }));
    const { get, seen } = watched({ rateLimitQuietPeriodMs: 200 });
    await get();
    await until(() => seen.length >= 3);
    expect(seen.map((s) => [s.concurrencyLimit, s.coolDownUntil === null])).toEqual([
      [4, false],
      [8, false],
      [8, true],
    ]);
    expect(Date.now()).toBeGreaterThanOrEqual(seen[1]?.coolDownUntil ?? Number.POSITIVE_INFINITY);
  });

  it("onRateStateChange: a cool-down longer than the longest timer is reported, and watched without a warning", async () => {
    server = await startRecordingServer((_req, res) => json(res, 429, {}, { "retry-after": "99999999999" }));
    const { get, seen, warnings } = watched({ rateLimitQuietPeriodMs: 100 });
    expect((await get()).error).toBeDefined();
    await until(() => seen.length >= 2);
    expect(seen.map((s) => s.concurrencyLimit)).toEqual([4, 8]);
    expect(seen[1]?.coolDownUntil).toBeGreaterThan(Date.now() + 2 ** 31);
    expect(warnings).toEqual([]);
  });

  it("onRateStateChange: a pace that ends with no response to announce it is reported as ended", async () => {
    server = await startRecordingServer((_req, res) => json(res, 200, {}));
    const endsAt = performance.now() + 600;
    const { get, seen } = watched({
      coordinator: scriptedCoordinator(0, () => ({ pace: performance.now() < endsAt ? 2 : undefined })),
    });
    await get();
    await until(() => seen.length >= 2);
    expect(seen.map((s) => s.pace)).toEqual([2, null]);
  });

  it("onRateStateChange: a coordinator whose state cannot be read later is warned about, never thrown from a timer", async () => {
    server = await startRecordingServer((_req, res) => json(res, 200, {}));
    let reads = 0;
    const { get, warnings } = watched({
      coordinator: scriptedCoordinator(0, () => {
        reads += 1;
        if (reads > 2) throw new Error("store gone");
        return { pace: 2 };
      }),
    });
    await get();
    await until(() => warnings.length >= 1);
    expect(warnings).toEqual([expect.stringContaining("rate state could not be read")]);
  });

  it("a bad onRateStateChange is refused by name", () => {
    expect(() =>
      createAudienceClient({
        baseUrl: "http://127.0.0.1:9/api/v3",
        session: sessionOf(),
        onRateStateChange: "yes" as never,
      }),
    ).toThrow(/option "onRateStateChange" must be a function/);
  });
});
