/**
 * Coordination in the process: clients of one partner at one environment share its 8 slots
 * and its 429 quiet period, against a real server counting requests in flight.
 */
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createAudienceClient } from "../../src/index.ts";
import { json, type RecordingServer, startRecordingServer } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

let server: RecordingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const tokens = makeTokens();
const session = { accessToken: tokens.AccessToken, idToken: tokens.IdToken };

async function holdAndCount(calls: Array<() => Promise<unknown>>, held: ServerResponse[]): Promise<void> {
  const all = calls.map((c) => c());
  // Until the calls the limiter lets through have all arrived (a loaded machine may take a while).
  for (let waited = 0, seen = -1; waited < 3_000 && (seen !== held.length || seen === 0); waited += 100) {
    seen = held.length;
    await new Promise((r) => setTimeout(r, 100));
  }
  const drain = setInterval(() => {
    for (const res of held.splice(0)) json(res, 200, {});
  }, 20);
  try {
    await Promise.all(all);
  } finally {
    clearInterval(drain);
  }
}

describe("clients of one partner in one process", () => {
  it("two clients together hold at most 8 calls in flight (was 16)", async () => {
    const held: ServerResponse[] = [];
    server = await startRecordingServer((_req, res) => void held.push(res));
    const a = createAudienceClient({ baseUrl: server.url, session });
    const b = createAudienceClient({ baseUrl: server.url, session });
    const get = (client: typeof a, i: number) => () =>
      client.GET("/events/{eid}", { params: { path: { eid: `e${i}` } } });
    await holdAndCount(
      Array.from({ length: 20 }, (_, i) => get(i % 2 ? a : b, i)),
      held,
    );
    expect(server.maxInFlight()).toBe(8);
    expect(server.requests).toHaveLength(20);
  });

  it("a 429 one client meets lowers the cap of the other", async () => {
    server = await startRecordingServer((req, res) =>
      req.path === "/events/limited" ? json(res, 429, {}, { "retry-after": "0" }) : json(res, 200, {}),
    );
    const a = createAudienceClient({ baseUrl: server.url, session, retry: { maxAttempts: 1 } });
    const b = createAudienceClient({ baseUrl: server.url, session });
    await b.GET("/events/{eid}", { params: { path: { eid: "e0" } } }); // b knows its partner
    expect(b.rateState()).toMatchObject({ concurrencyLimit: 8 });
    await a.GET("/events/{eid}", { params: { path: { eid: "limited" } } });
    expect(b.rateState()).toMatchObject({ partnerId: "partner-id-acme", concurrencyLimit: 4 });
  });

  it("clients configured differently keep their own limits", async () => {
    const held: ServerResponse[] = [];
    server = await startRecordingServer((_req, res) => void held.push(res));
    const narrow = createAudienceClient({ baseUrl: server.url, session, maxConcurrency: 2 });
    const wide = createAudienceClient({ baseUrl: server.url, session });
    await holdAndCount(
      Array.from({ length: 6 }, (_, i) => () => narrow.GET("/events/{eid}", { params: { path: { eid: `n${i}` } } })),
      held,
    );
    expect(server.maxInFlight()).toBe(2);
    server.resetStats();
    await holdAndCount(
      Array.from({ length: 12 }, (_, i) => () => wide.GET("/events/{eid}", { params: { path: { eid: `w${i}` } } })),
      held,
    );
    expect(server.maxInFlight()).toBe(8);
  });
});
