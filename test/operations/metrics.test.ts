/**
 * The `meter` option, read with the real OpenTelemetry SDK's in-memory exporter,
 * against a real local server: names, units, attributes (semantic conventions), counts; no secret.
 */
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import { afterEach, describe, expect, it } from "vitest";
import { createAudienceClient } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

function sdk() {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 });
  const provider = new MeterProvider({ readers: [reader] });
  return {
    meter: provider.getMeter("test"),
    async metrics() {
      await reader.forceFlush();
      const all =
        exporter
          .getMetrics()
          .at(-1)
          ?.scopeMetrics.flatMap((s) => s.metrics) ?? [];
      return new Map(all.map((m) => [m.descriptor.name, m]));
    },
    shutdown: () => provider.shutdown(),
  };
}

const password = 'p"w\\é-metrics-secret';

describe("metrics (option meter)", () => {
  it("records durations, attempts, retries by reason, 429s and sign-ins, with semantic-convention attributes", async () => {
    let calls = 0;
    api = await startFakeApi();
    api.route((_req, res) => {
      calls += 1;
      if (calls === 1) return json(res, 429, {}, { "retry-after": "0" });
      if (calls === 2) return json(res, 503, {});
      return json(res, 200, { id: "evt-1" });
    });
    const otel = sdk();
    const client = createAudienceClient({
      baseUrl: api.url,
      credentials: { username: "metrics@example.com", password },
      meter: otel.meter,
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
    });
    const { error } = await client.GET("/events/{eid}", { params: { path: { eid: "evt-1" } } });
    expect(error).toBeUndefined();
    const m = await otel.metrics();

    const request = m.get("http.client.request.duration");
    expect(request?.descriptor.unit).toBe("s");
    const points = (request?.dataPoints ?? []) as Array<{
      attributes: Record<string, unknown>;
      value: { count: number };
    }>;
    const byStatus = new Map(points.map((p) => [p.attributes["http.response.status_code"], p]));
    // The sign-in's attempt, and the call's three: 429, 503, 200.
    expect([...byStatus.keys()].sort()).toEqual([200, 429, 503]);
    expect(byStatus.get(429)?.attributes).toMatchObject({
      "http.request.method": "GET",
      "server.address": "127.0.0.1",
      "url.template": "/events/{eid}",
      "audience.operation": "/events/{eid}",
      "audience.partner_id": "partner-id-acme",
      "error.type": "429",
    });
    expect(byStatus.get(200)?.attributes["error.type"]).toBeUndefined();

    const call = m.get("audience.client.call.duration");
    const callPoints = (call?.dataPoints ?? []) as Array<{
      attributes: Record<string, unknown>;
      value: { count: number };
    }>;
    const event = callPoints.find((p) => p.attributes["url.template"] === "/events/{eid}");
    expect(event?.value.count).toBe(1);
    expect(event?.attributes["http.response.status_code"]).toBe(200);

    const sum = (name: string, where: (a: Record<string, unknown>) => boolean = () => true) =>
      ((m.get(name)?.dataPoints ?? []) as Array<{ attributes: Record<string, unknown>; value: number }>)
        .filter((p) => where(p.attributes))
        .reduce((n, p) => n + p.value, 0);
    const onEvent = (a: Record<string, unknown>) => a["url.template"] === "/events/{eid}";
    expect(sum("audience.client.attempts", onEvent)).toBe(3);
    expect(sum("audience.client.retries", (a) => onEvent(a) && a["audience.retry.reason"] === "429")).toBe(1);
    expect(sum("audience.client.retries", (a) => onEvent(a) && a["audience.retry.reason"] === "503")).toBe(1);
    expect(sum("audience.client.rate_limited")).toBe(1);
    expect(sum("audience.client.sign_ins")).toBe(1);
    expect(sum("audience.client.refreshes")).toBe(0);

    // No secret anywhere in what was exported.
    const text = JSON.stringify([...m.values()].map((x) => x.dataPoints));
    for (const secret of [password, ...api.issued]) expect(text).not.toContain(secret);
    await otel.shutdown();
  });

  it("records the slot wait of calls that waited", async () => {
    api = await startFakeApi();
    api.route(async (_req, res) => {
      await new Promise((r) => setTimeout(r, 30));
      json(res, 200, {});
    });
    const otel = sdk();
    const client = createAudienceClient({
      baseUrl: api.url,
      credentials: { username: "metrics@example.com", password },
      meter: otel.meter,
      maxConcurrency: 1,
    });
    await Promise.all([1, 2, 3].map((i) => client.GET("/events/{eid}", { params: { path: { eid: `e${i}` } } })));
    const m = await otel.metrics();
    const wait = m.get("audience.client.slot.wait");
    expect(wait?.descriptor.unit).toBe("s");
    const points = (wait?.dataPoints ?? []) as Array<{ value: { count: number; max?: number } }>;
    expect(points.reduce((n, p) => n + p.value.count, 0)).toBeGreaterThanOrEqual(2);
    await otel.shutdown();
  });

  it("a bad meter is refused by name; without one nothing is created", async () => {
    const base = { baseUrl: "http://127.0.0.1:9/api/v3", credentials: { username: "u", password: "pw-123" } };
    expect(() => createAudienceClient({ ...base, meter: {} as never })).toThrow(
      /option "meter" must be an OpenTelemetry Meter/,
    );
    let created = 0;
    const counting = {
      createHistogram: () => {
        created += 1;
        return { record: () => undefined };
      },
      createCounter: () => {
        created += 1;
        return { add: () => undefined };
      },
    };
    // With a meter, the instruments are created when the client's first call loads the metrics.
    const t = makeTokens();
    const session = { accessToken: t.AccessToken, idToken: t.IdToken };
    const metered = createAudienceClient({ ...base, session, meter: counting, retry: { maxAttempts: 1 } });
    await metered.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch(() => undefined);
    expect(created).toBeGreaterThan(0);
    created = 0;
    const plain = createAudienceClient({ ...base, session, retry: { maxAttempts: 1 } });
    await plain.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch(() => undefined);
    expect(created).toBe(0);
  });
});
