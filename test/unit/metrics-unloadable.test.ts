/**
 * The metrics policies (transport/metrics-policy.ts, loaded on first use by lazy-metrics.ts) that
 * cannot be loaded — a chunk the deployment no longer serves, a page gone offline: metrics are an
 * observer, so the calls go on unmeasured and succeed, a later call tries the load again, and the
 * logger is told once (never with a secret).
 */
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAudienceClient } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";

const loads = vi.hoisted(() => ({ tried: 0 }));
vi.mock("../../src/transport/metrics-policy.ts", () => {
  loads.tried += 1;
  throw new Error("chunk not served");
});

let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

describe("metrics that cannot be loaded", () => {
  it("every call succeeds unmeasured, the sign-in too, and a later call tries the load again", async () => {
    api = await startFakeApi();
    const warnings: string[] = [];
    const client = createAudienceClient({
      baseUrl: api.url,
      credentials: { username: "ops@acme.test", password: "pw-metrics-unloadable" },
      meter: new MeterProvider().getMeter("test"),
      logger: { warn: (message, details) => warnings.push(`${message} ${JSON.stringify(details ?? {})}`) },
    });
    const get = () => client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    for (const r of await Promise.all([get(), get()])) expect(r.response.status).toBe(200);
    const before = loads.tried;
    expect((await get()).response.status).toBe(200);
    expect(loads.tried).toBeGreaterThan(before);
    expect(api.signIns()).toBe(1);
    expect(api.calls()).toHaveLength(3);
    expect(warnings.filter((w) => w.includes("the metrics code could not be loaded"))).toHaveLength(1);
    expect(warnings.join("\n")).not.toContain("pw-metrics-unloadable");
  });
});
