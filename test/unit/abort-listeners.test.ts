/**
 * Nothing is left on a caller's signal: an app-wide shutdown signal handed to every call must
 * carry no listener of ours once its calls are done (openai-node's and ky's suites check the
 * same with `getEventListeners`). Through the public client, against a real local server.
 */
import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { createAudienceClient, listEvents, poll } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json } from "../support/recording-server.ts";

let api: FakeApi;
afterEach(() => api?.close());

const credentials = { username: "ops@acme.test", password: "pw-listeners-secret" };
const listeners = (signal: AbortSignal) => getEventListeners(signal, "abort").length;
type Client = ReturnType<typeof createAudienceClient>;
const read = (client: Client, signal: AbortSignal, eid = "e1") =>
  client.GET("/events/{eid}", { params: { path: { eid } }, signal });

describe("a caller's signal keeps no listener once its calls are done", () => {
  it("one call: none after it settles", async () => {
    api = await startFakeApi();
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    const shutdown = new AbortController().signal;
    const { response } = await read(client, shutdown);
    expect(response.status).toBe(200);
    expect(listeners(shutdown)).toBe(0);
  });

  it("50 calls sharing one signal, queued behind the partner's 8 slots: at most one while they run, none after", async () => {
    api = await startFakeApi();
    api.route((_req, res) => void setTimeout(() => json(res, 200, { ok: true }), 20));
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    const shutdown = new AbortController().signal;
    const calls = Array.from({ length: 50 }, (_, i) => read(client, shutdown, `e${i}`));
    await new Promise((r) => setTimeout(r, 10));
    expect(listeners(shutdown)).toBeLessThanOrEqual(1);
    const results = await Promise.all(calls);
    expect(results.every((r) => r.response.status === 200)).toBe(true);
    expect(listeners(shutdown)).toBe(0);
  });

  it("calls that fail (HTTP errors, a deadline) leave none either", async () => {
    api = await startFakeApi();
    api.route((req, res) =>
      req.path.endsWith("/slow") ? void setTimeout(() => json(res, 200, {}), 1_000) : json(res, 404, { error: "no" }),
    );
    const client = createAudienceClient({ baseUrl: api.url, credentials, retry: { deadlineMs: 200 } });
    const shutdown = new AbortController().signal;
    const { error } = await read(client, shutdown, "missing");
    expect(error).toBeDefined();
    const late = await read(client, shutdown, "slow").catch((e: unknown) => e);
    expect(late).toBeInstanceOf(Error);
    expect(listeners(shutdown)).toBe(0);
  });

  it("the helpers (poll, paginate through a list helper) leave none", async () => {
    api = await startFakeApi();
    let reads = 0;
    api.route((req, res) =>
      req.path === "/events/"
        ? json(res, 200, { items: [], page: 1, pages: 1, total: 0 })
        : json(res, 200, { status: ++reads >= 3 ? "done" : "running" }),
    );
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    const shutdown = new AbortController().signal;
    const status = await poll({
      fetchStatus: (signal) => client.GET("/status/", { ...(signal ? { signal } : {}) }).then((r) => r.data),
      isDone: (value) => (value as { status?: string } | undefined)?.status === "done",
      intervalMs: 5,
      signal: shutdown,
    });
    expect(status).toMatchObject({ status: "done" });
    for await (const _ of listEvents(client, { signal: shutdown })) {
      // no items
    }
    expect(listeners(shutdown)).toBe(0);
  });

  it("a signal that aborts still reaches every call following it", async () => {
    api = await startFakeApi();
    api.route((_req, res) => void setTimeout(() => json(res, 200, {}), 1_000));
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    const controller = new AbortController();
    const calls = Array.from({ length: 20 }, (_, i) => read(client, controller.signal, `e${i}`).catch((e) => e));
    await new Promise((r) => setTimeout(r, 50));
    controller.abort(new Error("shutting down"));
    const outcomes = await Promise.all(calls);
    expect(outcomes.every((o) => o instanceof Error && o.message === "shutting down")).toBe(true);
    expect(listeners(controller.signal)).toBe(0);
  });

  // A signal that cannot take a property: kept in a deep-frozen app state, or hardened (SES). Node's
  // own abort() writes to the signal, so a frozen one can never abort there (and Node 24 cannot add
  // a listener to one either).
  it.each([
    ["frozen", Object.freeze, false],
    ["sealed", Object.seal, true],
    ["not extensible", Object.preventExtensions, true],
  ] as Array<[string, (s: AbortSignal) => AbortSignal, boolean]>)(
    "a %s signal: calls succeed, an abort reaches them, none is left",
    async (_name, lock, abortable) => {
      api = await startFakeApi();
      let hold = false;
      api.route((_req, res) => void setTimeout(() => json(res, 200, {}), hold ? 1_000 : 0));
      const client = createAudienceClient({ baseUrl: api.url, credentials });
      const shutdown = lock(new AbortController().signal);
      const done = await Promise.all([read(client, shutdown, "a"), read(client, shutdown, "b")]);
      expect(done.map((r) => r.response.status)).toEqual([200, 200]);
      expect(listeners(shutdown)).toBe(0);
      if (!abortable) return;
      hold = true;
      const controller = new AbortController();
      const signal = lock(controller.signal);
      const calls = [read(client, signal, "c"), read(client, signal, "d")].map((c) => c.catch((e: unknown) => e));
      await new Promise((r) => setTimeout(r, 50));
      controller.abort(new Error("shutting down"));
      const outcomes = await Promise.all(calls);
      expect(outcomes.map((o) => (o as Error).message)).toEqual(["shutting down", "shutting down"]);
      expect(listeners(signal)).toBe(0);
    },
  );
});
