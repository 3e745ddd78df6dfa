/**
 * docs/RELIABILITY.md, "Hostile data, caller patterns, terminal text": server and caller data cost time linear in their size, and
 * nesting never turns into a raw RangeError. The timings run in a child process and compare n with
 * 4n (test/support/linear-time.ts); no absolute duration is asserted.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { table } from "../../scripts/demo-print.ts";
import { errorCodeOf } from "../../src/assumptions.ts";
import {
  ApiError,
  benchmarkValuesOf,
  createAudienceClient,
  ingestTransactionSummary,
  readBenchmark,
  unwrap,
  ValidationError,
} from "../../src/index.ts";
import { LINEAR_RATIO_LIMIT, measureCases, type Scaling, screenPatterns } from "../support/linear-time.ts";
import { json, type RecordingServer, startRecordingServer } from "../support/recording-server.ts";
import { cases } from "./linear-cases.ts";

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );

describe("linear time on server and caller data", () => {
  it("every regular expression of src/, generated/, the demo and the examples is linear on pumped inputs", async () => {
    const files = [...sources("src"), ...sources("generated"), ...sources("examples"), "scripts/demo.ts"];
    const { checked, suspects } = await screenPatterns(files);
    expect(checked).toBeGreaterThan(25); // the screen really saw the patterns
    expect(suspects).toEqual([]);
  }, 120_000);

  // One child times every case, one after the other (a process start per case cost more than the cases).
  let measured: Promise<Record<string, Scaling>> | undefined;
  for (const name of Object.keys(cases)) {
    it(`grows linearly: ${name}`, async () => {
      measured ??= measureCases();
      const { ratio } = (await measured)[name] as Scaling;
      expect(ratio).toBeLessThan(LINEAR_RATIO_LIMIT);
    }, 120_000);
  }
});

const nested = (depth: number, key: string, leaf: unknown): unknown => {
  let node = leaf;
  for (let i = 0; i < depth; i++) node = { [key]: node };
  return node;
};
/** The JSON text of `nested(depth, key, leaf)`, built without recursion. */
const nestedJson = (depth: number, key: string, leaf: unknown): string =>
  `${`{"${key}":`.repeat(depth)}${JSON.stringify(leaf)}${"}".repeat(depth)}`;

let server: RecordingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const session = { accessToken: "access-token-for-hostile-data" };
function raw(res: import("node:http").ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "content-type": "application/json", "x-request-id": "req-deep" });
  res.end(text);
}

describe("deep nesting: a correct result or a typed error, never a RangeError", () => {
  it("a 2xx benchmark nested 100 000 deep is read (readBenchmark)", async () => {
    server = await startRecordingServer((_req, res) =>
      raw(res, 200, nestedJson(100_000, "data", { values: [85, "90%"] })),
    );
    const client = createAudienceClient({ baseUrl: server.url, session, partnerId: "partner-id-acme" });
    const read = await readBenchmark(client, "evt-1", { type: "capacity" });
    expect(read.values).toEqual([85, "90%"]);
    expect(read.unit).toBe("percent");
  });

  it("benchmarkValuesOf walks 1 000 000 levels and keeps document order", () => {
    const body = { benchmark: 1, deep: nested(1_000_000, "x", { values: [2, 3] }), values: 4 };
    expect(benchmarkValuesOf(body)).toEqual([1, 2, 3, 4]);
  });

  it("errorCodeOf finds a code under 1 000 000 levels of error objects, and none where there is none", () => {
    expect(errorCodeOf(nested(1_000_000, "error", "error.deep.found"))).toBe("error.deep.found");
    expect(errorCodeOf(nested(1_000_000, "detail", { message: "no code" }))).toBeUndefined();
  });

  for (const depth of [4_000, 100_000]) {
    it(`an error body nested ${depth} deep is an ApiError that can be reported and serialized`, async () => {
      server = await startRecordingServer((_req, res) => raw(res, 400, nestedJson(depth, "error", "error.deep.code")));
      const client = createAudienceClient({ baseUrl: server.url, session, partnerId: "partner-id-acme" });
      const error = await client
        .GET("/events/", {})
        .then(unwrap)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).supportReport()).toContain("req-deep");
      expect(() => JSON.stringify(error)).not.toThrow();
    });
  }

  it("200 000 invalid ticket rows are one ValidationError naming the body, nothing sent", async () => {
    server = await startRecordingServer((_req, res) => json(res, 200, {}));
    const client = createAudienceClient({ baseUrl: server.url, session, partnerId: "partner-id-acme" });
    const tickets = Array.from({ length: 200_000 }, () => ({ type: 1, sold: "x", revenue: "y" }) as never);
    const error = await ingestTransactionSummary(client, {
      eid: "evt-1",
      from: "2027-01-01",
      to: "2027-01-31",
      tickets,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.field)).toEqual(["body"]);
    expect(server.requests).toHaveLength(0);
  });

  it("a query array of 200 000 invalid values is one ValidationError, nothing sent", async () => {
    server = await startRecordingServer((_req, res) => json(res, 200, {}));
    const client = createAudienceClient({ baseUrl: server.url, session, partnerId: "partner-id-acme" });
    const city = Array.from({ length: 200_000 }, () => Number.NaN);
    const put = client.PUT as unknown as (path: string, init: unknown) => Promise<unknown>;
    const error = await put("/events/{eid}/client_campaign_status", {
      params: { path: { eid: "evt-1" }, query: { params: { city } } },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toHaveLength(200_000);
    expect(server.requests).toHaveLength(0);
  });

  it("20 000 invalid ticket rows: every issue is listed", async () => {
    server = await startRecordingServer((_req, res) => json(res, 200, {}));
    const client = createAudienceClient({ baseUrl: server.url, session, partnerId: "partner-id-acme" });
    const tickets = Array.from({ length: 20_000 }, () => ({ type: 1, sold: "x", revenue: "y" }) as never);
    const error = await ingestTransactionSummary(client, {
      eid: "evt-1",
      from: "2027-01-01",
      to: "2027-01-31",
      tickets,
    }).catch((e: unknown) => e);
    expect((error as ValidationError).issues).toHaveLength(60_000);
    expect(server.requests).toHaveLength(0);
  });

  const draft = { goal: "UTILIZATION", total_budget: 1500, start_date: "2027-05-01", end_date: "2027-05-31" } as const;
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = { back: cyclic };
  const shared = { x: 1 }; // a shared (not cyclic) object is fine in JSON
  for (const [what, creatives, ok] of [
    ["nested 100 000 deep", [nested(100_000, "a", 1)], false],
    ["nested 5 000 deep", [nested(5_000, "a", 1)], false],
    ["with a cycle", [cyclic], false],
    ["with a BigInt", [{ n: 10n }], false],
    ["nested 50 deep, with a shared object", [nested(50, "a", shared), shared, [shared]], true],
  ] as const) {
    it(`a caller's JSON body ${what}: ${ok ? "sent" : "a ValidationError naming the body, nothing sent, client usable"}`, async () => {
      server = await startRecordingServer((_req, res) => json(res, 201, {}));
      const client = createAudienceClient({ baseUrl: server.url, session, partnerId: "partner-id-acme" });
      const body = { ...draft, creatives: creatives as unknown as unknown[] };
      const result = await client
        .POST("/setup_processes/{eid}", { params: { path: { eid: "evt-1" } }, body })
        .catch((e: unknown) => e);
      if (ok) {
        expect(result).not.toBeInstanceOf(Error);
        expect(server.requests).toHaveLength(1);
        return;
      }
      expect(result).toBeInstanceOf(ValidationError);
      expect((result as ValidationError).issues[0]?.field).toMatch(/^body/);
      expect(server.requests).toHaveLength(0);
      const again = await client.POST("/setup_processes/{eid}", { params: { path: { eid: "evt-2" } }, body: draft });
      expect(again.response.status).toBe(201);
    });
  }

  it("a deep JSON body to a path outside the description is refused the same way", async () => {
    server = await startRecordingServer((_req, res) => json(res, 201, {}));
    const client = createAudienceClient({ baseUrl: server.url, session, partnerId: "partner-id-acme" });
    const post = client.POST as unknown as (path: string, init: { body: unknown }) => Promise<unknown>;
    const error = await post("/drift/new_endpoint", { body: { a: [nested(10_000, "a", 1)] } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.field)).toEqual(["body"]);
    expect(server.requests).toHaveLength(0);
  });

  it("the demo's table shows a cell nested 100 000 deep without a RangeError", () => {
    const printed = table([{ id: "evt-1", name: nested(100_000, "a", "x") }]);
    expect(printed).toContain("evt-1");
  });
});
