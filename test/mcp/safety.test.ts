/**
 * What the server must never do, over stdio against the bin: let a secret reach a result, an error,
 * a question to the person or a log line (a hostile API echoes them in every encoding); exceed the
 * partner's budget (8 calls in flight, one sign-in for every tool call); block an agent for minutes
 * in a 429 storm (a tool call ends within 20 s, saying when to retry); write anything but the
 * protocol to stdout.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectConcurrencyAtMost, type MockApi, startMockApi } from "../../src/testing/index.ts";
import { findSecret } from "../support/secret-forms.ts";
import { type EchoProxy, startEchoProxy } from "./echo-proxy.ts";
import { type Connected, connect, PASSWORD, textOf } from "./stdio-server.ts";

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi();
}, 60_000);
afterAll(() => api?.close());

describe("secrets", () => {
  let proxy: EchoProxy;
  let s: Connected;
  beforeAll(async () => {
    proxy = await startEchoProxy(api.baseUrl, PASSWORD);
    s = await connect({
      baseUrl: proxy.baseUrl,
      flags: ["--allow-writes", "--allow-publish"],
      person: () => ({ action: "decline" }),
    });
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    await proxy?.close();
  });

  it("reach no result, error, question or log line, in any encoding, though the API echoes them", async () => {
    const profile = await s.call("read_api", { operation: "GET /profile/" });
    expect(profile.isError, textOf(profile)).toBeFalsy();
    expect(JSON.stringify(profile.structuredContent)).toContain("[REDACTED]");
    const features = await s.call("read_api", { operation: "GET /features/" });
    expect(textOf(features)).toMatch(/HTTP 400/);
    await s.call("save_draft", { eid: "evt-echo", draft: { goal: "ROAS", total_budget: 10 } });
    const publish = await s.call("publish_setup", { eid: "evt-echo" });
    expect(textOf(publish)).toMatch(/Not published \(declined\)/);
    expect(s.asked[0]).toContain("[REDACTED]");
    // The password, the access, ID and refresh tokens: at least four secrets seen on the wire.
    expect(proxy.secrets.size).toBeGreaterThanOrEqual(4);
    const said = s.said();
    for (const secret of proxy.secrets) expect(findSecret(said, secret), "a secret was shown").toBeUndefined();
    expect(s.protocolErrors).toEqual([]);
  }, 60_000);
});

describe("the partner's budget", () => {
  let s: Connected;
  beforeAll(async () => {
    api.useScenario("healthy");
    api.reset();
    s = await connect({ baseUrl: api.baseUrl });
  }, 60_000);
  afterAll(() => s?.close());

  it("holds across tool calls: at most 8 calls in flight and one sign-in", async () => {
    api.useScenario("slow-upstream", { delayMs: 300 });
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) => s.call(i % 2 ? "get_event" : "get_setup", { eid: `evt-${i}` })),
    );
    expect(results.filter((r) => r.isError).map(textOf)).toEqual([]);
    expectConcurrencyAtMost(api.requests(), 8);
    expect(Math.max(...inFlight(api))).toBeGreaterThan(1); // the calls did overlap
    expect(api.requests().filter((r) => r.path === "/auth")).toHaveLength(1);
  }, 60_000);

  it("under a 429 storm, a tool call ends within 20 s with isError and when to retry", async () => {
    api.useScenario("rate-limit-storm", { share: 1, calls: 10_000 });
    const started = performance.now();
    const result = await s.call("get_event", { eid: "evt-1001" });
    const seconds = (performance.now() - started) / 1000;
    console.info(`429 storm: the tool call ended after ${seconds.toFixed(1)} s`);
    expect(seconds).toBeLessThan(20);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/retry after \d{4}-\d\d-\d\dT[\d:.]+Z \(in \d+ s\)/);
    expect(s.protocolErrors).toEqual([]);
    api.useScenario("healthy");
  }, 60_000);
});

/** How many requests were in flight when each started. */
function inFlight(mock: MockApi): number[] {
  const requests = mock.requests();
  return requests.map(
    (r) =>
      requests.filter((o) => o.startedAt <= r.startedAt && (o.endedAt ?? Number.POSITIVE_INFINITY) > r.startedAt)
        .length,
  );
}
