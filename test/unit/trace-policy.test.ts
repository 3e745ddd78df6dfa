/**
 * Tracing (src/transport/trace-policy.ts) with the real OpenTelemetry SDK: a BasicTracerProvider
 * exporting to an InMemorySpanExporter, against a real node:http server. A span per call (kind
 * INTERNAL) and a child span per attempt (kind CLIENT, HTTP client semantic conventions).
 */
import type { Tracer } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { build } from "esbuild";
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import { createClientWithSeams } from "../../src/create-client.ts";
import { type AudienceClientOptions, createAudienceClient, NetworkError, unwrap } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { freePort } from "../support/free-port.ts";
import { json } from "../support/recording-server.ts";

const INTERNAL = 0;
const CLIENT = 2;
const ERROR = 2;

let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer: Tracer = provider.getTracer("trace-policy.test");
  return {
    tracer,
    spans: () => exporter.getFinishedSpans(),
    byKind: (kind: number) => exporter.getFinishedSpans().filter((s) => s.kind === kind),
  };
}

const fast = { baseDelayMs: 1, maxDelayMs: 5, rateLimitDelayMs: [7, 7] as const };
// No one-letter secret: the redactor masks every encoding of a secret, and the hex of "x" is "78",
// which a random port may contain.
const session = { accessToken: "access-token-for-tracing-1234", idToken: "id-token-for-tracing" };

const childrenOf = (parent: ReadableSpan, spans: readonly ReadableSpan[]) =>
  spans.filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId);

describe("tracing (option tracer)", () => {
  it("a 200: one INTERNAL call span and one CLIENT attempt span under it, with the semantic-convention attributes", async () => {
    api = await startFakeApi();
    api.route((_req, res) => json(res, 200, { id: "evt-1" }, { "x-request-id": "req-200" }));
    const t = tracing();
    const client = createAudienceClient({
      baseUrl: api.url,
      session,
      partnerId: "partner-id-acme",
      tracer: t.tracer,
    });
    const { data } = await client.GET("/events/{eid}", { params: { path: { eid: "evt-1" } } });
    expect(data).toEqual({ id: "evt-1" });

    const [call, ...moreCalls] = t.byKind(INTERNAL);
    expect(moreCalls).toEqual([]);
    const attempts = t.byKind(CLIENT);
    expect(attempts).toHaveLength(1);
    const attempt = attempts[0] as ReadableSpan;
    if (!call) throw new Error("no call span");
    expect(childrenOf(call, t.spans())).toEqual([attempt]);
    expect(attempt.spanContext().traceId).toBe(call.spanContext().traceId);

    const port = Number(new URL(api.url).port);
    for (const span of [call, attempt]) {
      expect(span.name).toBe("GET /events/{eid}");
      expect(span.attributes).toMatchObject({
        "http.request.method": "GET",
        "url.full": `${api.url}/events/evt-1`,
        "url.template": "/events/{eid}",
        "server.address": "127.0.0.1",
        "server.port": port,
        "http.response.status_code": 200,
        "audience.operation": "/events/{eid}",
        "audience.partner_id": "partner-id-acme",
        "audience.request_id": "req-200",
      });
      expect(span.attributes["error.type"]).toBeUndefined();
      expect(span.status.code).not.toBe(ERROR);
      expect(span.ended).toBe(true);
    }
    expect(attempt.attributes["audience.attempt"]).toBe(1);
    expect(attempt.attributes["http.request.resend_count"]).toBeUndefined();
    expect(attempt.attributes["audience.retry_wait_ms"]).toBeUndefined();
    expect(call.attributes["audience.attempt"]).toBe(1);
  });

  it("a 503 then a 429 then a 200: three attempt spans with resend count, attempt number and the wait before each", async () => {
    api = await startFakeApi();
    let n = 0;
    api.route((_req, res) => {
      n += 1;
      if (n === 1) return json(res, 503, {}, { "x-request-id": "req-a1" });
      if (n === 2) return json(res, 429, {}, { "x-request-id": "req-a2" });
      return json(res, 200, { n }, { "x-request-id": "req-a3" });
    });
    const t = tracing();
    const client = createClientWithSeams(
      { baseUrl: api.url, session, partnerId: "partner-id-acme", retry: fast, tracer: t.tracer },
      { retryHooks: { random: () => 0 } },
    );
    const { data } = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    expect(data).toEqual({ n: 3 });

    const [call] = t.byKind(INTERNAL);
    if (!call) throw new Error("no call span");
    const attempts = childrenOf(call, t.spans()).sort(
      (a, b) => (a.attributes["audience.attempt"] as number) - (b.attributes["audience.attempt"] as number),
    );
    expect(attempts.map((s) => s.kind)).toEqual([CLIENT, CLIENT, CLIENT]);
    expect(attempts.map((s) => s.attributes["audience.attempt"])).toEqual([1, 2, 3]);
    expect(attempts.map((s) => s.attributes["http.request.resend_count"])).toEqual([undefined, 1, 2]);
    expect(attempts.map((s) => s.attributes["http.response.status_code"])).toEqual([503, 429, 200]);
    expect(attempts.map((s) => s.attributes["error.type"])).toEqual(["503", "429", undefined]);
    expect(attempts.map((s) => s.status.code === ERROR)).toEqual([true, true, false]);
    expect(attempts.map((s) => s.attributes["audience.request_id"])).toEqual(["req-a1", "req-a2", "req-a3"]);
    // Backoff after the 503: min(cap 5, base 1 · 2^0), less random 0 · 30 % = 1 ms; after the 429: [7, 7] ms.
    expect(attempts.map((s) => s.attributes["audience.retry_wait_ms"])).toEqual([undefined, 1, 7]);
    expect(call.attributes).toMatchObject({
      "http.response.status_code": 200,
      "audience.attempt": 3,
      "audience.request_id": "req-a3",
    });
    expect(call.attributes["error.type"]).toBeUndefined();
  });

  it("a 429 after the last attempt: the call span ends in error with error.type 429", async () => {
    api = await startFakeApi();
    api.route((_req, res) => json(res, 429, {}, { "x-request-id": "req-429" }));
    const t = tracing();
    const client = createAudienceClient({
      baseUrl: api.url,
      session,
      partnerId: "partner-id-acme",
      retry: { ...fast, maxAttempts: 2 },
      tracer: t.tracer,
    });
    const result = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    expect(() => unwrap(result)).toThrow();
    const [call] = t.byKind(INTERNAL);
    expect(call?.attributes).toMatchObject({
      "http.response.status_code": 429,
      "error.type": "429",
      "audience.attempt": 2,
      "audience.request_id": "req-429",
    });
    expect(call?.status.code).toBe(ERROR);
    expect(t.byKind(CLIENT)).toHaveLength(2);
  });

  it("a network failure: every attempt span and the call span record the error; no status code", async () => {
    const port = await freePort();
    const t = tracing();
    const client = createAudienceClient({
      baseUrl: `http://127.0.0.1:${port}/api/v3`,
      session,
      partnerId: "partner-id-acme",
      retry: { ...fast, maxAttempts: 2 },
      tracer: t.tracer,
    });
    const error = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    const [call] = t.byKind(INTERNAL);
    const attempts = t.byKind(CLIENT);
    expect(attempts).toHaveLength(2);
    for (const attempt of attempts) {
      expect(attempt.attributes["error.type"]).toBe("network");
      expect(attempt.attributes["http.response.status_code"]).toBeUndefined();
      expect(attempt.status.code).toBe(ERROR);
      expect(attempt.status.message).toMatch(/ECONNREFUSED/);
    }
    expect(call?.attributes["error.type"]).toBe("NetworkError");
    expect(call?.attributes["audience.attempt"]).toBe(2);
    expect(call?.status.code).toBe(ERROR);
    expect(call?.status.message).toMatch(/after 2 attempt/);
  });

  it("an unknown path: the span name is the method alone (no high-cardinality name)", async () => {
    api = await startFakeApi();
    const t = tracing();
    const client = createAudienceClient({ baseUrl: api.url, session, partnerId: "partner-id-acme", tracer: t.tracer });
    await client.GET("/no-such-path/abc-123" as never);
    const [call] = t.byKind(INTERNAL);
    expect(call?.name).toBe("GET");
    expect(call?.attributes["url.template"]).toBeUndefined();
  });

  it("never holds a secret: tokens, the password and their encoded forms appear in no span, attribute or event", async () => {
    api = await startFakeApi();
    const username = "ops@acme.test";
    const password = "p@ss:w/rd secret+1=long";
    // The worst server: it echoes the bearer token into x-request-id and the error body.
    api.route((req, res) => {
      const status = Number(req.query.get("status") ?? 200);
      if (status === 0) return void req; // never answers: the attempt times out
      json(res, status, { echo: req.headers.authorization }, { "x-request-id": String(req.headers.authorization) });
    });
    const t = tracing();
    const client = createAudienceClient({
      baseUrl: api.url,
      credentials: { username, password },
      retry: { ...fast, maxAttempts: 2, rateLimitDelayMs: [1, 2] },
      timeoutMs: 50,
      tracer: t.tracer,
    });
    for (const status of [200, 400, 401, 403, 404, 429, 500, 0]) {
      await client.GET("/events/", { params: { query: { status } as never } }).catch(() => undefined);
    }
    // A caller that puts the current token in a query string: url.full must not show it.
    await client.GET("/events/", { params: { query: { status: 200, q: api.tokens().AccessToken } as never } });
    const secrets = [password, ...api.issued];
    expect(api.issued.length).toBeGreaterThanOrEqual(3);
    const forms = secrets.flatMap((s) => [
      s,
      encodeURIComponent(s),
      Buffer.from(s).toString("base64"),
      Buffer.from(s).toString("base64url"),
    ]);
    forms.push(Buffer.from(`${username}:${password}`).toString("base64"));
    // Long enough to be a secret, not a fragment that would match by chance.
    for (const s of [...api.issued]) forms.push(s.slice(0, 24), s.slice(-24));

    const text = JSON.stringify(
      t.spans().map((s) => ({
        name: s.name,
        attributes: s.attributes,
        events: s.events,
        status: s.status,
        links: s.links,
      })),
    );
    expect(t.spans().length).toBeGreaterThan(8);
    expect(text).toContain("[REDACTED]"); // the echoed request id was there, masked
    for (const form of forms) expect(text).not.toContain(form);
  });

  it("a bad tracer is refused, naming the option; nothing is sent", async () => {
    api = await startFakeApi();
    expect(() => createAudienceClient({ baseUrl: api?.url ?? "", session, tracer: {} as unknown as Tracer })).toThrow(
      /option "tracer"/,
    );
    expect(api.requests).toHaveLength(0);
  });

  it("accepts any OpenTelemetry Tracer by type", () => {
    expectTypeOf<Tracer>().toExtend<NonNullable<AudienceClientOptions["tracer"]>>();
  });

  it("@opentelemetry/api is a type-only dependency: the browser bundle loads none of it", async () => {
    const result = await build({
      entryPoints: ["src/index.ts"],
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((i) => i.includes("src/transport/trace-policy.ts"))).toBe(true);
    expect(inputs.filter((i) => i.includes("@opentelemetry"))).toEqual([]);
  });
});
