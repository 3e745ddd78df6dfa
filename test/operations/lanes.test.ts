/**
 * The lanes through the client, against a real server: `priority: "low"` is the background
 * lane. A waiting interactive call takes the next free slot ahead of queued background calls, and
 * background calls still progress.
 */
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createAudienceClient, listEvents, watchAdPlatformConnection } from "../../src/index.ts";
import { json, type RecordingServer, startRecordingServer } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

let server: RecordingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("priority lanes", () => {
  it("an interactive call overtakes queued background calls; the background still completes", async () => {
    const held: ServerResponse[] = [];
    server = await startRecordingServer((_req, res) => void held.push(res));
    const t = makeTokens();
    const client = createAudienceClient({
      baseUrl: server.url,
      partnerId: "acme",
      maxConcurrency: 2,
      session: { accessToken: t.AccessToken, refreshToken: t.RefreshToken, idToken: t.IdToken },
    });
    const low = { priority: "low" } as const;
    const background = Array.from({ length: 10 }, (_, i) =>
      client.GET("/events/{eid}", { params: { path: { eid: `b${i}` } }, ...low }),
    );
    while (held.length < 2) await new Promise((r) => setTimeout(r, 5));
    const interactive = client.GET("/events/{eid}", { params: { path: { eid: "interactive" } } });
    await expect.poll(() => client.concurrency(), { timeout: 5000 }).toMatchObject({ active: 2, queued: 9 });
    // One slot frees: the interactive call is next, ahead of 8 background calls queued before it.
    json(held.shift() as ServerResponse, 200, { id: "b0" });
    while (server.requests.length < 3) await new Promise((r) => setTimeout(r, 5));
    expect(server.requests[2]?.path).toBe("/events/interactive");
    // Answer everything: every call completes.
    const drain = setInterval(() => {
      for (const res of held.splice(0)) json(res, 200, { id: "x" });
    }, 5);
    try {
      const results = await Promise.all([interactive, ...background]);
      expect(results.every((r) => r.error === undefined)).toBe(true);
    } finally {
      clearInterval(drain);
    }
  });

  it("helpers take priority too: a list and a poll wait in the background lane", async () => {
    const held: ServerResponse[] = [];
    server = await startRecordingServer((_req, res) => void held.push(res));
    const t = makeTokens();
    const client = createAudienceClient({
      baseUrl: server.url,
      partnerId: "acme",
      maxConcurrency: 1,
      session: { accessToken: t.AccessToken, refreshToken: t.RefreshToken, idToken: t.IdToken },
    });
    const first = client.GET("/events/{eid}", { params: { path: { eid: "holder" } } });
    while (held.length < 1) await new Promise((r) => setTimeout(r, 5));
    const list = listEvents(client, { priority: "low", maxItems: 1 })[Symbol.asyncIterator]().next();
    const watch = watchAdPlatformConnection(client, { adPlatform: "meta", priority: "low", isDone: () => true });
    const interactive = client.GET("/events/{eid}", { params: { path: { eid: "now" } } });
    await expect.poll(() => client.rateState().queued, { timeout: 5000 }).toEqual({ interactive: 1, background: 2 });
    const drain = setInterval(() => {
      for (const res of held.splice(0)) json(res, 200, { items: [{ id: "e1" }] });
    }, 5);
    try {
      await Promise.all([first, list, watch, interactive]);
    } finally {
      clearInterval(drain);
    }
    expect(server.requests[1]?.path).toBe("/events/now"); // the interactive call went first
  });
});
