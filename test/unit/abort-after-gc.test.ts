/**
 * A cancel or an attempt's timeout ends the request in flight even after a garbage collection.
 * When the client hands a fetch a Request it built (a caller's `Request` class, the `Request`
 * option, a `fetch` option or a middleware that gets Requests), the runtime's fetch copies it, and
 * undici's copy follows the original's signal through weak references (nodejs/undici#4068,
 * nodejs/node#55428): with the original unreachable, a collection cut the abort's path and the
 * request ran to its answer (3 s here) instead. The collection is forced (`--expose-gc` set at run
 * time), so each case is deterministic.
 */
import v8 from "node:v8";
import vm from "node:vm";
import type { Middleware } from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AudienceClientOptions, createAudienceClient } from "../../src/index.ts";
import { json, type RecordingServer, startRecordingServer } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

class OwnRequest extends Request {}
const passOn = (request: Request) => globalThis.fetch(request);
const seesRequests: Middleware = { onRequest: () => undefined };

let server: RecordingServer;
let arrived = 0;
beforeAll(async () => {
  server = await startRecordingServer((req, res) => {
    if (!req.path.startsWith("/events/slow")) return json(res, 200, { id: "evt-1" });
    arrived += 1;
    setTimeout(() => json(res, 200, { late: true }), 3_000).unref();
  });
});
afterAll(() => server.close());

const t = makeTokens();
const base = (): AudienceClientOptions => ({
  baseUrl: server.url,
  session: { accessToken: t.AccessToken, idToken: t.IdToken },
  retry: { maxAttempts: 1 },
});

const variants: Array<{
  name: string;
  options?: Partial<AudienceClientOptions>;
  call?: Record<string, unknown>;
  use?: boolean;
}> = [
  { name: "a call's Request class", call: { Request: OwnRequest } },
  { name: "the Request option", options: { Request: OwnRequest } },
  { name: "the fetch option, passing the Request on", options: { fetch: passOn } },
  { name: "a middleware that gets Requests", use: true },
  { name: "a call's own fetch", call: { fetch: passOn } },
];

/** Waits until the slow request is at the server, collects garbage, then runs `end`; how long the call took to settle after it. */
async function afterCollection(sent: Promise<unknown>, end: () => void): Promise<{ outcome: unknown; ms: number }> {
  const before = arrived;
  sent.catch(() => {});
  while (arrived === before) await new Promise((r) => setTimeout(r, 5));
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 10));
  }
  const started = performance.now();
  end();
  const outcome = await sent.then(
    (value) => value,
    (error: unknown) => error,
  );
  return { outcome, ms: performance.now() - started };
}

describe("the request in flight ends after a garbage collection", () => {
  it.each(variants)("$name: the caller's cancel", async ({ options, call, use }) => {
    const client = createAudienceClient({ ...base(), ...options });
    if (use) client.use(seesRequests);
    await client.GET("/events/{eid}", { params: { path: { eid: "warm" } } });
    const cancel = new AbortController();
    const sent = client.GET("/events/{eid}", { params: { path: { eid: "slow" } }, signal: cancel.signal, ...call });
    const { outcome, ms } = await afterCollection(sent, () => cancel.abort(new Error("cancelled by its caller")));
    expect(outcome).toMatchObject({ message: "cancelled by its caller" });
    expect(ms).toBeLessThan(2_000); // the answer would come 3 s after the request
  });

  it.each(variants)("$name: the attempt's timeout", async ({ options, call, use }) => {
    const client = createAudienceClient({ ...base(), timeoutMs: 400, ...options });
    if (use) client.use(seesRequests);
    await client.GET("/events/{eid}", { params: { path: { eid: "warm" } } });
    const sent = client.GET("/events/{eid}", { params: { path: { eid: "slow-t" } }, ...call });
    const { outcome, ms } = await afterCollection(sent, () => {});
    expect((outcome as Error).name).toBe("TimeoutError");
    expect(ms).toBeLessThan(2_000);
  });
});
