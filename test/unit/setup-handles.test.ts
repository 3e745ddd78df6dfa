/**
 * `setupProcess(eid)` handles are released once the caller drops them and they have nothing left
 * to do (they were kept for ever, ~2.1 KB per eid); one with an edit waiting, in flight
 * or kept after a failure is kept, so asking again for its eid finds the same queue.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { createClientWithSeams } from "../../src/create-client.ts";
import type { SetupProcess } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { routeSetupApi } from "../support/fake-setup-api.ts";
import { json } from "../support/recording-server.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

let api: FakeApi;
afterEach(() => api?.close());
const credentials = { username: "u", password: "pw-setup-handles" };
const draft = { goal: "UTILIZATION" as const, total_budget: 1000, start_date: "2027-03-01", end_date: "2027-03-31" };

async function collect(): Promise<void> {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A handle asked for inside a function, so no local of the test keeps it. */
function weakHandle(client: { setupProcess(eid: string): SetupProcess }, eid: string, use?: (h: SetupProcess) => void) {
  const handle = client.setupProcess(eid);
  use?.(handle);
  return new WeakRef(handle);
}

describe("setupProcess handles", () => {
  it("an idle handle the caller dropped is released", async () => {
    api = await startFakeApi();
    routeSetupApi(api);
    const client = createClientWithSeams({ baseUrl: api.url, credentials }, { autosaveDebounceMs: 10 });
    await client.GET("/events/", {}); // the engine is loaded and signed in
    const refs = Array.from({ length: 50 }, (_, i) => weakHandle(client, `idle-${i}`));
    await collect();
    expect(refs.filter((r) => r.deref() !== undefined).length).toBe(0); // before: all 50 kept
    // Asking again gives a working handle.
    await client.setupProcess("idle-0").create(draft);
    expect(client.setupProcess("idle-0").state).toBe("draft");
  });

  it("a handle with an autosave waiting or a save in flight is kept: its eid finds the same queue", async () => {
    api = await startFakeApi();
    routeSetupApi(api);
    // A debounce longer than the collections below: the autosave is still waiting through them.
    const client = createClientWithSeams({ baseUrl: api.url, credentials }, { autosaveDebounceMs: 5_000 });
    await client.setupProcess("busy").create(draft);
    const ref = weakHandle(client, "busy", (h) => void h.autosave({ ...draft, total_budget: 2000 }));
    await collect(); // the autosave is still waiting for its debounce
    expect(ref.deref()).toBeDefined();
    expect(client.setupProcess("busy")).toBe(ref.deref());
    await client.setupProcess("busy").flush();
    await collect();
    expect(ref.deref()).toBeUndefined(); // idle again, and dropped
  });

  it("a handle keeping a failed edit is kept until the edit is stored", async () => {
    api = await startFakeApi();
    let fail = true;
    const drafts = new Map<string, unknown>();
    api.route((req, res) => {
      const eid = /^\/setup_processes\/([^/]+)$/.exec(req.path)?.[1];
      if (!eid) return json(res, 200, {});
      if (req.method === "PUT" && fail) return json(res, 400, { message: "rejected for now" });
      drafts.set(eid, JSON.parse(req.body));
      return json(res, req.method === "POST" ? 201 : 200, drafts.get(eid));
    });
    const client = createClientWithSeams({ baseUrl: api.url, credentials }, { autosaveDebounceMs: 5 });
    await client.setupProcess("kept").create(draft);
    const ref = weakHandle(client, "kept", (h) => void h.update({ ...draft, total_budget: 3000 }).catch(() => {}));
    await new Promise((r) => setTimeout(r, 100));
    await collect();
    expect(ref.deref()).toBeDefined(); // the failed edit waits for the next flush
    fail = false;
    await client.setupProcess("kept").flush();
    expect(drafts.get("kept")).toMatchObject({ total_budget: 3000 });
  });
});
