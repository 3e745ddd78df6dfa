/**
 * The signal an attempt is sent with belongs to that attempt alone. A `fetch` of the caller's (the
 * client's option or a call's own) gets it on its Request: once the attempt has ended, nothing may
 * abort it, not another call's timeout, nor another client's. (A wrapper that cleans up or logs on
 * `request.signal`'s abort would otherwise report a finished request as aborted, with another
 * attempt's reason.)
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAudienceClient } from "../../src/index.ts";
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
