/**
 * Admission (create-client.ts): a call that must wait for the partner's turn waits before
 * openapi-fetch or the transport build anything for it (so that queued calls cost little memory and
 * abort quickly), and the turn it took is the one its first attempt uses.
 */
import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { createAudienceClient } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json } from "../support/recording-server.ts";

let api: FakeApi;
afterEach(() => api?.close());
const credentials = { username: "ops@acme.test", password: "pw-admission" };

/** A fake API whose event reads wait until released; the client signed in, one call holding the only slot. */
async function oneSlotBusy() {
  api = await startFakeApi();
  const held: Array<() => void> = [];
  api.route((req, res) => {
    if (req.path.startsWith("/events/hold")) held.push(() => json(res, 200, { id: "hold" }));
    else json(res, 200, { id: "ok" });
  });
  const client = createAudienceClient({ baseUrl: api.url, credentials, maxConcurrency: 1 });
  await client.GET("/events/", {}); // signed in: the partner is known
  const busy = client.GET("/events/{eid}", { params: { path: { eid: "hold" } } });
  await until(() => held.length === 1);
  return { client, busy, release: () => held.shift()?.() };
}

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !done(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(done()).toBe(true);
}

describe("admission: a call waits for its turn before anything is built for it", () => {
  it("openapi-fetch builds a queued call's URL only once the call is admitted", async () => {
    const { client, busy, release } = await oneSlotBusy();
    let built = 0;
    const queued = client.GET("/events/{eid}", {
      params: { path: { eid: "later" } },
      querySerializer: () => {
        built += 1;
        return "";
      },
    });
    await until(() => client.concurrency().queued === 1);
    await new Promise((r) => setTimeout(r, 20));
    expect(built).toBe(0); // before: built at once, then queued in the transport
    release();
    await busy;
    expect((await queued).data).toEqual({ id: "ok" });
    expect(built).toBe(1);
    expect(api.maxInFlight()).toBe(1); // the admitted turn is the first attempt's: no second slot
  });

  it("a turn taken at admission is given back when the call fails before its first attempt", async () => {
    const { client, busy, release } = await oneSlotBusy();
    const failing = client.GET("/events/{eid}", {
      params: { path: { eid: "later" } },
      querySerializer: () => {
        throw new Error("serializer refused");
      },
    });
    await until(() => client.concurrency().queued === 1);
    release();
    await busy;
    await expect(failing).rejects.toThrow("serializer refused");
    expect(client.concurrency().active).toBe(0);
    // The slot is free again: the next call goes at once.
    expect((await client.GET("/events/{eid}", { params: { path: { eid: "next" } } })).data).toEqual({ id: "ok" });
  });

  it("a turn taken at admission is given back when the transport fails before the first attempt", async () => {
    const { client, busy, release } = await oneSlotBusy();
    // A body the transport cannot read: reading it into bytes (so every attempt can send it) fails.
    const failing = client.POST("/events/{eid}/series", {
      params: { path: { eid: "e1" } },
      body: {} as never,
      bodySerializer: () =>
        new ReadableStream({
          pull: (controller) => controller.error(new Error("body stream broke")),
        }) as never,
    });
    await until(() => client.concurrency().queued === 1);
    release();
    await busy;
    await expect(failing).rejects.toThrow("body stream broke");
    expect(client.concurrency().active).toBe(0);
    expect((await client.GET("/events/{eid}", { params: { path: { eid: "next" } } })).data).toEqual({ id: "ok" });
  });

  it("aborting queued calls rejects each with the reason, sends none, and frees the queue", async () => {
    const { client, busy, release } = await oneSlotBusy();
    const controller = new AbortController();
    const calls = Array.from({ length: 50 }, (_, i) =>
      client.GET("/events/{eid}", { params: { path: { eid: `q${i}` } }, signal: controller.signal }),
    );
    await until(() => client.concurrency().queued === 50);
    // One listener on the shared signal, however many calls wait on it (Node warns past 10).
    expect(getEventListeners(controller.signal, "abort").length).toBe(1);
    const sentBefore = api.calls().length;
    controller.abort(new Error("user left the page"));
    const results = await Promise.allSettled(calls);
    expect(results.every((r) => r.status === "rejected" && (r.reason as Error).message === "user left the page")).toBe(
      true,
    );
    expect(client.concurrency().queued).toBe(0);
    release();
    await busy;
    expect(api.calls().length).toBe(sentBefore);
    expect(client.concurrency().active).toBe(0);
  });

  it("queued calls keep their lanes: an interactive call waiting behind background ones goes first", async () => {
    const { client, busy, release } = await oneSlotBusy();
    const order: string[] = [];
    const call = (eid: string, priority?: "low") =>
      client
        .GET("/events/{eid}", { params: { path: { eid } }, ...(priority ? { priority } : {}) })
        .then(() => order.push(eid));
    const all = [call("bg1", "low"), call("bg2", "low"), call("fg1")];
    await until(() => client.concurrency().queued === 3);
    release();
    await busy;
    await Promise.all(all);
    expect(order[0]).toBe("fg1");
  });
});
