/**
 * A tracer or a meter that throws, or hands back a span or an instrument without the methods
 * OpenTelemetry's have (the options are typed by the one method the client calls first, so `{}`
 * type-checks): an observer never changes a call's outcome. Every call and the sign-in succeed as
 * the API answered, what can still be observed is, and the logger is told once per client, never
 * with a secret.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type AudienceClientOptions, createAudienceClient, type MeterLike, type TracerLike } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";

let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const thrower = (what: string) => () => {
  throw new Error(`${what} bug pw-faulty-observer`);
};
/** An object each of whose methods throws. */
const throwingObject = (what: string): object => new Proxy({}, { get: () => thrower(what) });
const counter = { add() {} };
const histogram = { record() {} };

const observers: Array<[string, Partial<AudienceClientOptions>, string]> = [
  ["tracer.startSpan throws", { tracer: { startSpan: thrower("tracer") } }, "tracer"],
  ["every method of its spans throws", { tracer: { startSpan: () => throwingObject("span") } }, "tracer"],
  ["its spans are {}", { tracer: { startSpan: () => ({}) } satisfies TracerLike }, "tracer"],
  [
    "meter.createHistogram throws",
    { meter: { createHistogram: thrower("meter"), createCounter: () => counter } },
    "meter",
  ],
  [
    "every method of its instruments throws",
    { meter: { createHistogram: () => throwingObject("histogram"), createCounter: () => throwingObject("counter") } },
    "meter",
  ],
  [
    "its instruments are {}",
    { meter: { createHistogram: () => ({}), createCounter: () => ({}) } satisfies MeterLike },
    "meter",
  ],
  [
    "only its counters throw",
    { meter: { createHistogram: () => histogram, createCounter: () => throwingObject("c") } },
    "meter",
  ],
];

describe("a faulty observer", () => {
  it.each(observers)(
    "%s: every call and the sign-in succeed; the logger is told once",
    async (_name, options, kind) => {
      api = await startFakeApi();
      const warnings: string[] = [];
      const client = createAudienceClient({
        baseUrl: api.url,
        credentials: { username: "ops@acme.test", password: "pw-faulty-observer" },
        logger: { warn: (message, details) => warnings.push(`${message} ${JSON.stringify(details ?? {})}`) },
        ...options,
      });
      const get = (eid: string) => client.GET("/events/{eid}", { params: { path: { eid } } });
      for (const r of await Promise.all([get("e1"), get("e2"), get("e3")])) expect(r.response.status).toBe(200);
      expect((await get("e4")).response.status).toBe(200);
      expect(api.signIns()).toBe(1);
      expect(api.calls()).toHaveLength(4);
      expect(warnings.filter((w) => w.includes(`the ${kind} threw`))).toHaveLength(1);
      expect(warnings.join("\n")).not.toContain("pw-faulty-observer");
    },
  );
});
