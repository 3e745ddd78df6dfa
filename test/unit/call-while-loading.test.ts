/**
 * A call made while the code it needs is still loading — the engine (lazy-engine.ts: a browser
 * app's first calls, a chunk on a slow network) or the request schemas (guards/validate-request.ts:
 * the first validated call). A deadline (`deadlineMs` of a helper, the client's `retry.deadlineMs`)
 * counts from the call, not from the end of the load, and a call whose deadline passed or whose
 * signal aborted is never sent, then or once the code has loaded; later calls work. The wait for
 * the request schemas is bounded like every other wait of the call: an abort rejects at once with
 * the signal's reason, a deadline with a TimeoutError naming it. The wait for the engine itself is
 * not (bounding it costs ~0.4 KB up front, over the browser build's 10 KB target): the call ends
 * so as soon as the engine is there. The loads here are held by gates the test opens, so a call
 * that does not honour its signal or deadline while held would never settle (the race fails it).
 */
import { getEventListeners } from "node:events";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type * as Client from "../../src/index.ts";
import { json, type RecordingServer, startRecordingServer } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

const gates = vi.hoisted(() => {
  const gate = () => {
    let open = (): void => {};
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    return { opened, open: () => open() };
  };
  return { engine: gate(), validators: gate() };
});
vi.mock("../../src/engine.ts", async (importOriginal) => {
  await gates.engine.opened;
  return importOriginal();
});
vi.mock("../../generated/validators.ts", async (importOriginal) => {
  await gates.validators.opened;
  return importOriginal();
});

let server: RecordingServer;
let client: typeof Client;
beforeAll(async () => {
  server = await startRecordingServer((_req, res) => json(res, 200, [{ id: 1 }]));
  client = await import("../../src/index.ts");
});
afterAll(() => server.close());

const t = makeTokens();
const session = { accessToken: t.AccessToken, idToken: t.IdToken };
const make = (options: Partial<Client.AudienceClientOptions> = {}) =>
  client.createAudienceClient({ baseUrl: server.url, session, ...options });

/** The outcome of `work`, or "still waiting" if it has not settled within `ms` (the load is held). */
async function settled(work: Promise<unknown>, ms = 5_000): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waiting = new Promise((resolve) => {
    timer = setTimeout(() => resolve("still waiting"), ms);
  });
  try {
    return await Promise.race([
      work.then(
        (value) => ({ value }),
        (error: unknown) => error,
      ),
      waiting,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const setupBody = { goal: "ROAS", total_budget: 100 } as never;

describe("a call while the engine loads", () => {
  it("an abort or a deadline that came during the load ends the call once the engine is there: its reason, or a TimeoutError naming the deadline counted from the call; nothing is sent", async () => {
    const controller = new AbortController();
    const aborted = make().GET("/partners/", { signal: controller.signal });
    const gone = new AbortController();
    gone.abort(new Error("already gone"));
    const early = make().GET("/partners/", { signal: gone.signal });
    const started = performance.now();
    const helper = client.getPartners(make(), { deadlineMs: 300 });
    const own = make({ retry: { deadlineMs: 200 } }).GET("/partners/");
    // A path outside the description is the caller's own text: no error repeats it (it may hold a value).
    const raw = (make({ retry: { deadlineMs: 200 } }).GET as (path: string) => Promise<unknown>)(
      `/not-described/${t.AccessToken}`,
    );
    raw.catch(() => {});
    for (const p of [aborted, early, helper, own]) p.catch(() => {});
    controller.abort(new Error("left the page"));
    await new Promise((r) => setTimeout(r, 400)); // both deadlines pass while the engine is held
    gates.engine.open();
    expect(await settled(aborted)).toMatchObject({ message: "left the page" });
    expect(await settled(early)).toMatchObject({ message: "already gone" });
    const byHelper = await settled(helper);
    expect(byHelper).toBeInstanceOf(client.TimeoutError);
    // The helper's 300 ms count from the helper's start, the figure from its call's: the few ms the
    // helper takes before its call (more on a busy machine: 294 in one CI run) come off it. Counted
    // from the engine's load, it would be below zero (the load ended 400 ms in).
    const [, ms] = /deadline of (-?\d+) ms passed before it was sent/.exec((byHelper as Error).message) ?? [];
    expect(Number(ms)).toBeGreaterThan(250);
    expect(Number(ms)).toBeLessThanOrEqual(300);
    expect(byHelper).toMatchObject({ attempts: 0, mayHaveSucceeded: false, method: "GET", path: "/partners/" });
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
    const byRaw = await settled(raw);
    expect(byRaw).toBeInstanceOf(client.TimeoutError);
    expect(JSON.stringify({ ...(byRaw as object), message: (byRaw as Error).message })).not.toContain(t.AccessToken);
    expect(byRaw).toMatchObject({ method: "GET", path: undefined });
    const byOwn = await settled(own);
    expect(byOwn).toBeInstanceOf(client.TimeoutError);
    expect((byOwn as Error).message).toMatch(/deadline of 200 ms passed before it was sent/);
  });
});

describe("a call while the request schemas load (the engine loaded)", () => {
  const write = (c: ReturnType<typeof make>, init: Record<string, unknown> = {}) =>
    c.POST("/setup_processes/{eid}", { params: { path: { eid: "e1" } }, body: setupBody, ...init });

  it("the caller's abort rejects it at once with the signal's reason", async () => {
    const controller = new AbortController();
    const call = write(make(), { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("closed the wizard")), 50);
    expect(await settled(call)).toMatchObject({ message: "closed the wizard" });
  });

  it("twenty calls sharing one signal hold one listener on it while they wait, and all reject with its reason", async () => {
    const controller = new AbortController();
    const c = make();
    const calls = Array.from({ length: 20 }, () => write(c, { signal: controller.signal }));
    await new Promise((r) => setTimeout(r, 20));
    expect(getEventListeners(controller.signal, "abort").length).toBeLessThanOrEqual(1);
    controller.abort(new Error("navigated away"));
    for (const call of calls) expect(await settled(call)).toMatchObject({ message: "navigated away" });
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("a signal already aborted, and a bad body: the signal's reason, nothing left unhandled", async () => {
    const controller = new AbortController();
    controller.abort(new Error("gone before"));
    const c = make();
    expect(await settled(write(c, { signal: controller.signal }))).toMatchObject({ message: "gone before" });
    const bad = c.POST("/setup_processes/{eid}", {
      params: { path: { eid: "e1" } },
      body: { total_budget: "x" } as never,
      signal: controller.signal,
    });
    expect(await settled(bad)).toMatchObject({ message: "gone before" });
  });

  it("the client's retry.deadlineMs ends it with a TimeoutError naming the deadline", async () => {
    const error = await settled(write(make({ retry: { deadlineMs: 250 } })));
    expect(error).toBeInstanceOf(client.TimeoutError);
    expect((error as Error).message).toMatch(/deadline of 250 ms/);
    expect(error).toMatchObject({ attempts: 0, mayHaveSucceeded: false });
  });

  it("once they load: none of the calls above is sent, a new call is, and a deadline that outlived the wait counts from the call", async () => {
    // Sent once the schemas load, to a server that never answers: its 3 s ran from the call. The
    // deadline is long enough for the load, whatever the machine's load (a 400 ms one passed while
    // a busy CI machine was still loading the schemas, and the call was rightly never sent).
    const silent = await startRecordingServer(() => {});
    const late = client.createAudienceClient({ baseUrl: silent.url, session, retry: { deadlineMs: 3_000 } });
    const started = performance.now();
    const waited = write(late);
    await new Promise((r) => setTimeout(r, 1_000));
    gates.validators.open();
    const error = await settled(waited, 10_000);
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(client.TimeoutError);
    expect((error as Error).message).toMatch(/the call's deadline of 3000 ms passed/);
    expect((error as Error).message).not.toMatch(/before it was sent/);
    expect(silent.requests).toHaveLength(1);
    // From the call: about 3 s. From the end of the load it would be 4 s or more.
    expect(elapsed).toBeGreaterThanOrEqual(2_990);
    expect(elapsed).toBeLessThan(3_900);
    await silent.close();
    const c = make();
    expect((await c.GET("/partners/")).response.status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    expect(server.requests.map((r) => r.path)).toEqual(["/partners/"]);
  });
});
