/**
 * The trace policies (transport/trace-policy.ts, loaded on first use by lazy-trace.ts) that cannot
 * be loaded — a chunk the deployment no longer serves, a page gone offline: tracing is an observer,
 * as metrics are, so the calls go on untraced and succeed (the sign-in too), the failure is logged
 * once per failed load, never with a secret, and a later call tries the load again.
 */
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAudienceClient } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";

const loads = vi.hoisted(() => ({ tried: 0 }));
vi.mock("../../src/transport/trace-policy.ts", () => {
  loads.tried += 1;
  throw new Error("chunk not served");
});

let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

describe("tracing that cannot be loaded", () => {
  it("every call succeeds untraced, the sign-in too; one warning per failed load; a later call tries again", async () => {
    api = await startFakeApi();
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const warnings: string[] = [];
    const client = createAudienceClient({
      baseUrl: api.url,
      credentials: { username: "ops@acme.test", password: "pw-trace-unloadable" },
      tracer: provider.getTracer("trace-unloadable.test"),
      logger: { warn: (message, details) => warnings.push(`${message} ${JSON.stringify(details ?? {})}`) },
    });
    const get = () => client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    for (const r of await Promise.all([get(), get(), get()])) expect(r.response.status).toBe(200);
    expect(warnings.filter((w) => w.includes("the tracing code could not be loaded"))).toHaveLength(1);
    const before = loads.tried;
    expect((await get()).response.status).toBe(200);
    expect(loads.tried).toBeGreaterThan(before);
    expect(api.signIns()).toBe(1);
    expect(api.calls()).toHaveLength(4);
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(warnings.join("\n")).not.toContain("pw-trace-unloadable");
  });
});
