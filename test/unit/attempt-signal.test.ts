/**
 * The signal an attempt is sent with belongs to that attempt alone. A `fetch` of the caller's (the
 * client's option or a call's own) gets it on its Request: once the attempt has ended, nothing may
 * abort it, not another call's timeout, nor another client's. (A wrapper that cleans up or logs on
 * `request.signal`'s abort would otherwise report a finished request as aborted, with another
 * attempt's reason.)
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAudienceClient } from "../../src/index.ts";
import { json, startRecordingServer } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

const baseUrl = "http://127.0.0.1:9/api/v3";

/** A fetch that answers at once, except for /events/slow, which waits until its Request is aborted. */
function recordingFetch(signals: AbortSignal[]) {
  return (request: Request): Promise<Response> => {
    signals.push(request.signal);
    if (!request.url.endsWith("/events/slow")) return Promise.resolve(Response.json({ ok: true }));
    return new Promise((_resolve, reject) =>
      request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true }),
    );
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A client whose attempts reach `recordingFetch`: as its `fetch` option, or as the patched global fetch. */
const client = (signals: AbortSignal[], via: "option" | "global" = "option") => {
  const t = makeTokens();
  if (via === "global")
    vi.stubGlobal("fetch", (url: string, init: RequestInit) => recordingFetch(signals)(new Request(url, init)));
  return createAudienceClient({
    baseUrl,
    session: { accessToken: t.AccessToken, idToken: t.IdToken },
    ...(via === "option" ? { fetch: recordingFetch(signals) } : {}),
    timeoutMs: 50,
    retry: { maxAttempts: 1 },
  });
};
const read = (c: ReturnType<typeof client>, eid: string) => c.GET("/events/{eid}", { params: { path: { eid } } });

describe("an attempt's signal is its own", () => {
  it("a finished attempt's signal is not aborted by a later call's timeout", async () => {
    const signals: AbortSignal[] = [];
    const c = client(signals);
    for (let i = 0; i < 3; i++) expect((await read(c, `e${i}`)).response.status).toBe(200);
    const finished = [...signals];
    await expect(read(c, "slow")).rejects.toThrow();
    expect(signals.at(-1)?.aborted).toBe(true); // the timed-out attempt's own signal
    expect(finished.map((s) => s.aborted)).toEqual([false, false, false]);
  });

  it("nor by another client's", async () => {
    const mine: AbortSignal[] = [];
    const theirs: AbortSignal[] = [];
    const a = client(mine);
    const b = client(theirs);
    for (let i = 0; i < 3; i++) await read(a, `e${i}`);
    await expect(read(b, "slow")).rejects.toThrow();
    expect(mine.map((s) => s.aborted)).toEqual([false, false, false]);
  });

  it("nor when a test tool patched the global fetch after the package was loaded", async () => {
    const signals: AbortSignal[] = [];
    const c = client(signals, "global");
    for (let i = 0; i < 3; i++) expect((await read(c, `e${i}`)).response.status).toBe(200);
    const finished = [...signals];
    await expect(read(c, "slow")).rejects.toThrow();
    expect(finished.map((s) => s.aborted)).toEqual([false, false, false]);
  });

  it("nor when the call gave its own fetch", async () => {
    const signals: AbortSignal[] = [];
    const t = makeTokens();
    const c = createAudienceClient({
      baseUrl,
      session: { accessToken: t.AccessToken, idToken: t.IdToken },
      timeoutMs: 50,
      retry: { maxAttempts: 1 },
    });
    const own = recordingFetch(signals);
    const at = (eid: string) => c.GET("/events/{eid}", { params: { path: { eid } }, fetch: own });
    for (let i = 0; i < 3; i++) expect((await at(`e${i}`)).response.status).toBe(200);
    const finished = [...signals];
    await expect(at("slow")).rejects.toThrow();
    expect(finished.map((s) => s.aborted)).toEqual([false, false, false]);
  });
});

/**
 * A fetch replaced before the package was loaded looks, to the package, like the runtime's own:
 * nothing in the process can tell them apart (Node's fetch is JavaScript, as a wrapper is). It is
 * still the caller's code, and must see each request's signal abort only for that request.
 */
/** What test/support/wrapped-fetch-child.ts prints, run with test/support/fetch-wrapper.mjs given to `--import`. */
const CHILD = fileURLToPath(new URL("../support/wrapped-fetch-child.ts", import.meta.url));
const WRAPPER = new URL("../support/fetch-wrapper.mjs", import.meta.url).href;

describe("a fetch patched before the package loaded", () => {
  /** What a wrapper saw of one request: its URL, and whether (and why) its signal aborted. */
  interface Seen {
    url: string;
    aborted: boolean;
    reason?: string;
  }
  const finishedAborted = (seen: readonly Seen[]) =>
    seen
      .filter((s) => !s.url.endsWith("/events/slow"))
      .map((s) => (s.aborted ? `${s.url}: ${s.reason}` : "not aborted"));

  it("a wrapper installed with --import, before any application code", async () => {
    const server = await startRecordingServer((req, res) => {
      if (req.path !== "/events/slow") return json(res, 200, { ok: true });
      setTimeout(() => json(res, 200, { late: true }), 5_000).unref();
    });
    try {
      const child = spawn(process.execPath, ["--import", WRAPPER, "--import", "tsx", CHILD, server.url], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      let err = "";
      child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
      expect({ code, err }).toEqual({ code: 0, err: "" });
      const seen = JSON.parse(out.trim().split("\n").at(-1) ?? "[]") as Seen[];
      expect(seen).toHaveLength(8); // 6 answered, 2 slow: one timed out, one cancelled by its caller
      expect(seen.filter((s) => s.url.endsWith("/events/slow")).map((s) => s.aborted)).toEqual([true, true]);
      expect(finishedAborted(seen)).toEqual(Array(6).fill("not aborted"));
    } finally {
      await server.close();
    }
  }, 30_000);

  it("msw's setupServer listening before the package is imported (a vitest setup file)", async () => {
    const base = "https://api.example.test/api/v3";
    const seen: Seen[] = [];
    const msw = setupServer(
      http.get(`${base}/events/:eid`, async ({ request, params }) => {
        const entry: Seen = { url: request.url, aborted: false };
        seen.push(entry);
        request.signal.addEventListener("abort", () => {
          entry.aborted = true;
          entry.reason = String((request.signal.reason as Error | undefined)?.message ?? request.signal.reason);
        });
        if (params.eid !== "slow") return HttpResponse.json({ ok: true });
        await new Promise((resolve) => request.signal.addEventListener("abort", resolve));
        return HttpResponse.error();
      }),
    );
    msw.listen({ onUnhandledRequest: "error" });
    try {
      vi.resetModules(); // the package is loaded afresh, after msw patched the global fetch
      const fresh = (await import("../../src/index.ts")) as typeof import("../../src/index.ts");
      const t = makeTokens();
      const c = fresh.createAudienceClient({
        baseUrl: base,
        session: { accessToken: t.AccessToken, idToken: t.IdToken },
        timeoutMs: 100,
        retry: { maxAttempts: 1 },
      });
      const at = (eid: string, signal?: AbortSignal) =>
        c.GET("/events/{eid}", { params: { path: { eid } }, ...(signal ? { signal } : {}) });
      for (let i = 0; i < 3; i++) expect((await at(`e${i}`)).response.status).toBe(200);
      await expect(at("slow")).rejects.toThrow();
      for (let i = 3; i < 6; i++) expect((await at(`e${i}`)).response.status).toBe(200);
      const cancel = new AbortController();
      setTimeout(() => cancel.abort(new Error("the caller cancelled")), 20);
      await expect(at("slow", cancel.signal)).rejects.toThrow();
      expect(seen).toHaveLength(8);
      expect(finishedAborted(seen)).toEqual(Array(6).fill("not aborted"));
    } finally {
      msw.close();
    }
  });
});
