/**
 * A secret is masked for as long as it can appear: a token refreshed away stays a valid bearer
 * until its own `exp`, so it stays masked until then, however many refreshes come; and an /auth
 * response's tokens are learned before anything of that response is logged or traced. Through the
 * public client, against a real local server.
 */
import type { Tracer } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { createAudienceClient } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json, type RecordingServer, startRecordingServer } from "../support/recording-server.ts";
import { findSecret } from "../support/secret-forms.ts";
import { makeTokens } from "../support/tokens.ts";

let api: FakeApi | RecordingServer | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const credentials = { username: "ops@acme.test", password: "pw-lifetime-secret" };
const fast = { baseDelayMs: 1, maxDelayMs: 5, rateLimitDelayMs: [7, 7] as const };
const bearer = (auth: string | string[] | undefined) => String(auth).replace(/^Bearer /, "");

describe("a refreshed-away token stays masked until it expires", () => {
  it("a 401 storm of 20 refreshes while a slow attempt is in flight: that attempt's echo of its token is masked", async () => {
    const fake = await startFakeApi();
    api = fake;
    let release: () => void = () => undefined;
    const stormOver = new Promise<void>((r) => (release = r));
    let storm = 0;
    fake.route(async (req, res) => {
      if (req.path === "/events/slow") {
        const token = bearer(req.headers.authorization);
        await stormOver;
        // A gateway's error page that echoes the bearer it was sent (the slow attempt's own token).
        return json(res, 404, { error: "not found", echo: `Bearer ${token}` }, { "x-request-id": "req-slow" });
      }
      if (req.path === "/status/") return json(res, 200, { ok: true });
      // Every other storm request is refused once: each call draws a 401, a refresh, a replay.
      return (storm++ & 1) === 0 ? json(res, 401, { error: "expired" }) : json(res, 200, { ok: true });
    });
    const client = createAudienceClient({ baseUrl: fake.url, credentials, retry: fast });
    await client.GET("/status/", {});
    const slow = client.GET("/events/{eid}", { params: { path: { eid: "slow" } } });
    await new Promise((r) => setTimeout(r, 100));
    const slowToken = fake.tokens().AccessToken;
    for (let i = 0; i < 20; i++) await client.GET("/events/{eid}", { params: { path: { eid: `e${i}` } } });
    expect(fake.refreshes()).toBe(20);
    release();
    const { error, response } = await slow;
    expect(response.status).toBe(404);
    const shown = `${JSON.stringify(error)} ${String((error as Error | undefined)?.message)}`;
    expect(findSecret(shown, slowToken)).toBeUndefined();
  });
});

describe("an /auth response's secrets are learned before it is logged or traced", () => {
  it("a token that the /auth response also puts in its x-request-id is masked in the attempt's span and log line", async () => {
    const tokens = makeTokens();
    const server = await startRecordingServer((req, res) =>
      req.path === "/auth"
        ? json(res, 200, tokens, { "x-request-id": `auth-${tokens.AccessToken}` })
        : json(res, 200, { ok: true }, { "x-request-id": "req-ok" }),
    );
    api = server;
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tracer: Tracer = provider.getTracer("secret-lifetime.test");
    const lines: string[] = [];
    const log = (message: string, details?: unknown) => lines.push(`${message} ${JSON.stringify(details)}`);
    const client = createAudienceClient({
      baseUrl: server.url,
      credentials,
      tracer,
      logger: { debug: log, info: log, warn: log },
    });
    const { response } = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    expect(response.status).toBe(200);
    const spans = JSON.stringify(exporter.getFinishedSpans().map((s) => [s.name, s.attributes, s.status]));
    expect(spans).toContain("auth-[REDACTED]"); // the /auth attempt's span was made, its id masked
    for (const secret of [tokens.AccessToken, tokens.IdToken, tokens.RefreshToken]) {
      expect(findSecret(spans, secret)).toBeUndefined();
      expect(findSecret(lines.join("\n"), secret)).toBeUndefined();
    }
  });
});
