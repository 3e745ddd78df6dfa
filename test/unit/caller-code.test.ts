/**
 * src/transport/caller-code.ts: what the caller's code sees of a call — a middleware (the client's
 * or the call's own), a `fetch` (the client's or the call's own), a `Request` class (the same two
 * places) — in one table, through the client against a real server. Each row says what the
 * middleware gets, which fetch receives each attempt and in what form; on every row, each attempt's
 * signal is its own (never aborted once its attempt has ended, by another caller's cancel).
 */

import type { Middleware } from "openapi-fetch";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createAudienceClient } from "../../src/index.ts";
import { openapiRequestClass } from "../../src/transport/caller-code.ts";
import { json, type RecordingServer, startRecordingServer } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

class ClientRequest extends Request {}
class CallRequest extends Request {}

interface Row {
  readonly name: string;
  readonly clientMiddleware?: true;
  readonly callMiddleware?: true;
  readonly clientFetch?: true;
  readonly callFetch?: true;
  readonly clientRequest?: true;
  readonly callRequest?: true;
  /** The class of the Request the middleware gets, or "none". */
  readonly middlewareGets: string;
  /** Who receives each attempt, and as what: "runtime: (url, init)", or "<who>: <Request class>". */
  readonly attemptGoesTo: string;
}

const rows: Row[] = [
  { name: "nothing of the caller's", middlewareGets: "none", attemptGoesTo: "runtime: (url, init)" },
  {
    name: "a client middleware",
    clientMiddleware: true,
    middlewareGets: "Request",
    attemptGoesTo: "runtime: (url, init)",
  },
  {
    name: "a call's middleware",
    callMiddleware: true,
    middlewareGets: "Request",
    attemptGoesTo: "runtime: (url, init)",
  },
  { name: "the fetch option", clientFetch: true, middlewareGets: "none", attemptGoesTo: "client fetch: Request" },
  { name: "a call's fetch", callFetch: true, middlewareGets: "none", attemptGoesTo: "call fetch: Request" },
  {
    name: "a call's fetch beside the option",
    clientFetch: true,
    callFetch: true,
    middlewareGets: "none",
    attemptGoesTo: "call fetch: Request",
  },
  { name: "the Request option", clientRequest: true, middlewareGets: "none", attemptGoesTo: "runtime: ClientRequest" },
  { name: "a call's Request", callRequest: true, middlewareGets: "none", attemptGoesTo: "runtime: CallRequest" },
  {
    name: "a middleware and the Request option",
    clientMiddleware: true,
    clientRequest: true,
    middlewareGets: "ClientRequest",
    attemptGoesTo: "runtime: ClientRequest",
  },
  {
    name: "a call's middleware and Request beside the option",
    callMiddleware: true,
    clientRequest: true,
    callRequest: true,
    middlewareGets: "CallRequest",
    attemptGoesTo: "runtime: CallRequest",
  },
  {
    name: "a middleware and the fetch option",
    clientMiddleware: true,
    clientFetch: true,
    middlewareGets: "Request",
    attemptGoesTo: "client fetch: Request",
  },
];

let server: RecordingServer;
const original = globalThis.fetch;
beforeEach(async () => {
  server = await startRecordingServer((req, res) => {
    if (req.path !== "/events/slow") return json(res, 200, { id: "evt-1" });
    setTimeout(() => json(res, 200, { late: true }), 3_000).unref();
  });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await server.close();
});

const tokens = makeTokens();

describe("what the caller's code sees of a call", () => {
  it.each(rows)("$name", async (row) => {
    const received: string[] = [];
    const signals: AbortSignal[] = [];
    const bodies: unknown[] = [];
    let middlewareGets = "none";
    const signalOf = (input: unknown, init?: RequestInit) =>
      signals.push((init?.signal ?? (input as Request).signal) as AbortSignal);
    vi.stubGlobal("fetch", (input: string | Request, init?: RequestInit) => {
      signalOf(input, init);
      received.push(`runtime: ${typeof input === "string" ? "(url, init)" : input.constructor.name}`);
      return original(input, init);
    });
    const recording = (who: string) => (request: Request) => {
      signalOf(request);
      received.push(`${who}: ${request.constructor.name}`);
      return original(request);
    };
    const middleware: Middleware = {
      onRequest: ({ request }) => {
        middlewareGets = request.constructor.name;
      },
      onResponse: async ({ response }) => {
        if (response.ok) bodies.push(await response.clone().json());
      },
    };
    const client = createAudienceClient({
      baseUrl: server.url,
      session: { accessToken: tokens.AccessToken, idToken: tokens.IdToken },
      retry: { maxAttempts: 1 },
      ...(row.clientFetch ? { fetch: recording("client fetch") } : {}),
      ...(row.clientRequest ? { Request: ClientRequest } : {}),
    });
    if (row.clientMiddleware) client.use(middleware);
    const read = (eid: string, signal?: AbortSignal) =>
      client.GET("/events/{eid}", {
        params: { path: { eid } },
        ...(signal ? { signal } : {}),
        ...(row.callMiddleware ? { middleware: [middleware] } : {}),
        ...(row.callFetch ? { fetch: recording("call fetch") } : {}),
        ...(row.callRequest ? { Request: CallRequest } : {}),
      });

    for (const eid of ["e1", "e2"]) expect((await read(eid)).data).toEqual({ id: "evt-1" });
    const finished = [...signals];
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(new Error("cancelled by its caller")), 50);
    await expect(read("slow", cancel.signal)).rejects.toThrow(/cancelled by its caller/);

    expect({ middlewareGets, attemptGoesTo: received[0] }).toEqual({
      middlewareGets: row.middlewareGets,
      attemptGoesTo: row.attemptGoesTo,
    });
    expect(new Set(received).size).toBe(1); // every attempt alike
    // A middleware's onResponse reads the body the client has read already.
    expect(bodies).toEqual(row.middlewareGets === "none" ? [] : [{ id: "evt-1" }, { id: "evt-1" }]);
    expect(new Set(signals).size).toBe(3); // a signal per attempt
    expect(signals.at(-1)?.aborted).toBe(true);
    expect(finished.map((s) => s.aborted)).toEqual([false, false]);
  });

  it("openapi-fetch builds a real Request of the caller's class only when a middleware will see it", () => {
    const call = (middleware: boolean, requestClass?: typeof Request) => ({ middleware, requestClass });
    expect(openapiRequestClass(call(false, CallRequest), ClientRequest)).toBeUndefined();
    expect(openapiRequestClass(call(true), undefined)).toBe(globalThis.Request);
    expect(openapiRequestClass(call(true), ClientRequest)).toBe(ClientRequest);
    expect(openapiRequestClass(call(true, CallRequest), ClientRequest)).toBe(CallRequest);
  });
});
