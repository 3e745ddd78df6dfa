/**
 * src/transport/caller-code.ts: what the caller's code sees of a call — a middleware (the client's
 * or the call's own), a `fetch` (the client's or the call's own), a `Request` class (the same two
 * places) — in one table, through the client against a real server. Each row says what the
 * middleware gets, which fetch receives each attempt and in what form; on every row, each attempt's
 * signal is its own (never aborted once its attempt has ended, by another caller's cancel).
 */

import type { Middleware } from "openapi-fetch";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createAudienceClient, ValidationError } from "../../src/index.ts";
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

describe("a Request class that cannot build the request", () => {
  let built = 0;
  class Throwing extends Request {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      built += 1;
      super(input, init);
      throw new Error("this class refuses");
    }
  }
  const notAClass = (() => ({})) as unknown as typeof Request;
  const rows: Array<[string, { client?: typeof Request; call?: typeof Request }]> = [
    ["the client's Request option throws", { client: Throwing }],
    ["the call's own Request throws", { call: Throwing }],
    ["the Request option is no constructor", { client: notAClass }],
  ];
  it.each(rows)(
    "%s: a ValidationError naming init, at once, nothing sent, the client usable after",
    async (_name, given) => {
      const seen: string[] = [];
      const server = await startRecordingServer((req, res) => {
        seen.push(req.path);
        json(res, 200, {});
      });
      try {
        built = 0;
        const t = makeTokens();
        const client = createAudienceClient({
          baseUrl: server.url,
          partnerId: "acme",
          session: { accessToken: t.AccessToken },
          // A fetch of the caller's: attempts go to it as Requests of the given class.
          fetch: (request: Request) => globalThis.fetch(request),
          ...(given.client ? { Request: given.client } : {}),
        });
        const error = await client
          .GET("/events/{eid}", { params: { path: { eid: "e1" } }, ...(given.call ? { Request: given.call } : {}) })
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ValidationError);
        expect((error as ValidationError).issues).toEqual([
          { field: "init", message: expect.stringContaining("nothing was sent") },
        ]);
        expect(built).toBeLessThanOrEqual(1); // not retried: the same class fails every attempt
        expect(seen).toEqual([]);
        if (given.client) return;
        expect((await client.GET("/events/{eid}", { params: { path: { eid: "e2" } } })).response.status).toBe(200);
      } finally {
        await server.close();
      }
    },
  );
});
