/**
 * One convention for the helpers' last argument: `{ signal, deadlineMs,
 * priority }`, with a bare AbortSignal still accepted. Against a real local server.
 */
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createAudienceClient, getPartners, RateLimitError, ValidationError } from "../../src/index.ts";
import { json, type RecordingServer, startRecordingServer } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

let server: RecordingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const t = makeTokens();
const session = { accessToken: t.AccessToken, idToken: t.IdToken };

describe("a one-call helper's options", () => {
  it("deadlineMs: a Retry-After past it fails at once with retryAt", async () => {
    server = await startRecordingServer((req, res) =>
      req.url?.includes("/partners") ? json(res, 429, {}, { "retry-after": "10" }) : json(res, 200, {}),
    );
    const client = createAudienceClient({ baseUrl: server.url, session });
    // The engine loaded first: what is timed is the refusal, not the first call's load (which the
    // deadline also bounds: test/unit/call-while-loading.test.ts).
    await client.GET("/events/{eid}", { params: { path: { eid: "warm" } } });
    server.requests.length = 0;
    const started = performance.now();
    const error = await getPartners(client, { deadlineMs: 3000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    // At once: well before the deadline it would have waited to (room for a loaded machine).
    expect(performance.now() - started).toBeLessThan(2500);
    expect(server.requests).toHaveLength(1);
    expect((error as RateLimitError).retryAt).toBeGreaterThan(Date.now() + 6000);
  });

  it("priority: low waits in the background lane", async () => {
    const held: ServerResponse[] = [];
    server = await startRecordingServer((_req, res) => void held.push(res));
    const client = createAudienceClient({ baseUrl: server.url, session, maxConcurrency: 1 });
    const holder = client.GET("/events/{eid}", { params: { path: { eid: "holder" } } });
    while (held.length < 1) await new Promise((r) => setTimeout(r, 5));
    const low = getPartners(client, { priority: "low" });
    await expect.poll(() => client.rateState().queued, { timeout: 5000 }).toEqual({ interactive: 0, background: 1 });
    const drain = setInterval(() => {
      for (const res of held.splice(0)) json(res, 200, [{ id: 1 }]);
    }, 5);
    try {
      await Promise.all([holder, low]);
    } finally {
      clearInterval(drain);
    }
  });

  it("a bare AbortSignal still works, and so does { signal }", async () => {
    server = await startRecordingServer((_req, _res) => undefined); // never answers
    const client = createAudienceClient({ baseUrl: server.url, session });
    for (const pass of [(c: AbortController) => c.signal, (c: AbortController) => ({ signal: c.signal })]) {
      const controller = new AbortController();
      const pending = getPartners(client, pass(controller));
      setTimeout(() => controller.abort(new Error("stop")), 20);
      await expect(pending).rejects.toThrow("stop");
    }
  });

  it("a bad deadlineMs is refused by name, nothing sent", async () => {
    server = await startRecordingServer((_req, res) => json(res, 200, []));
    const client = createAudienceClient({ baseUrl: server.url, session });
    const error = await getPartners(client, { deadlineMs: Number.NaN }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues[0]?.field).toBe("deadlineMs");
    expect(server.requests).toHaveLength(0);
  });
});
