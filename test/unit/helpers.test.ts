/** The workflow helpers end to end against a recording server: what reaches the wire, and what does not. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  countUnreadMessages,
  createAudienceClient,
  createCampaign,
  ingestExcel,
  ingestTransactionSummary,
  listEvents,
  listNotifications,
  readBenchmark,
  ServerError,
  setClientCampaignStatus,
  setOptimisationStatus,
  uploadMedia,
  ValidationError,
  waitForClientCampaignStatusTask,
} from "../../src/index.ts";
import { ingestExcelFile } from "../../src/node/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { makeZip, minimalXlsxEntries } from "../support/make-zip.ts";
import { json } from "../support/recording-server.ts";

let api: FakeApi;
afterEach(() => api?.close());
const make = () =>
  createAudienceClient({
    baseUrl: api.url,
    mediaUrl: `${api.url}/api/media`,
    credentials: { username: "u", password: "pw-helpers" },
    retry: { baseDelayMs: 1, maxDelayMs: 2 },
  });

describe("reads", () => {
  it("listEvents pages until a short page, and stops early at maxItems", async () => {
    api = await startFakeApi();
    api.route((req, res) => {
      const page = Number(req.query.get("page"));
      const limit = Number(req.query.get("limit"));
      const count = page < 3 ? limit : 2;
      json(res, 200, { items: Array.from({ length: count }, (_, i) => ({ id: `p${page}-${i}` })) });
    });
    const client = make();
    const all = [];
    for await (const e of listEvents(client, { limit: 5, descending: true })) all.push(e.id);
    expect(all).toHaveLength(12);
    expect(api.calls().map((r) => r.url)).toEqual([
      "/events/?page=1&limit=5&descending=true",
      "/events/?page=2&limit=5&descending=true",
      "/events/?page=3&limit=5&descending=true",
    ]);
    api.resetStats();
    const some = [];
    for await (const e of listEvents(client, { limit: 5, maxItems: 7 })) some.push(e.id);
    expect(some).toHaveLength(7);
    expect(api.calls()).toHaveLength(2);
    expect(() => listEvents(client, { limit: 10_000 })).toThrow(ValidationError);
  });

  it("limit-only lists read one page", async () => {
    api = await startFakeApi();
    api.route((_req, res) => json(res, 200, [{ n: 1 }, { n: 2 }]));
    const items = [];
    for await (const n of listNotifications(make(), { limit: 2 })) items.push(n);
    expect(items).toHaveLength(2);
    expect(api.calls()).toHaveLength(1);
  });

  it("readBenchmark returns the body, the values and the detected unit", async () => {
    api = await startFakeApi();
    api.route((req, res) =>
      json(res, 200, req.path.endsWith("_benchmark") ? { benchmark: ["85%", "92%"], eid: "e1" } : {}),
    );
    const read = await readBenchmark(make(), "e1", { type: "capacity" });
    expect(read).toMatchObject({
      unit: "percent",
      fractions: [0.85, 0.92],
      ambiguous: false,
      values: ["85%", "92%"],
      body: { eid: "e1" },
    });
    expect(api.calls()[0]?.url).toBe("/events/e1/lookout_prediction_benchmark?type=capacity");
    await expect(readBenchmark(make(), "e1", { type: "seats" as never })).rejects.toThrow(
      /query.type: must be one of "capacity", "ticket_count"/,
    );
  });

  it("countUnreadMessages reads total_unread", async () => {
    api = await startFakeApi();
    api.route((_req, res) => json(res, 200, { total_unread: 4 }));
    expect(await countUnreadMessages(make())).toBe(4);
  });
});

describe("query-string writes and polls", () => {
  it("send their parameters as plain pairs; POST /campaigns/ is not repeated after a 5xx", async () => {
    api = await startFakeApi();
    api.route((req, res) => json(res, req.path === "/campaigns/" ? 503 : 200, {}));
    const client = make();
    await setOptimisationStatus(client, "e1", "ad_campaign", { enabled: true });
    await expect(createCampaign(client, { eid: "e1", budget: 100 })).rejects.toMatchObject({
      name: "ServerError",
      mayHaveSucceeded: true,
    });
    expect(api.calls().map((r) => `${r.method} ${r.url}`)).toEqual([
      "PUT /events/e1/ad_campaign_optimisation_status?enabled=true",
      "POST /campaigns/?eid=e1&budget=100",
    ]);
  });

  it("waitForClientCampaignStatusTask polls the task until a terminal state", async () => {
    api = await startFakeApi();
    let n = 0;
    api.route((req, res) => json(res, 200, req.method === "PUT" ? {} : { status: ++n < 2 ? "RUNNING" : "done" }));
    const client = make();
    await setClientCampaignStatus(client, "e1", { status: "PAUSED" }); // the PUT that starts the task
    const started = Date.now();
    await expect(waitForClientCampaignStatusTask(client, "e1")).resolves.toEqual({ status: "done" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900); // Section 8.5: about 2 s between task polls
    expect(api.calls().map((r) => r.path)).toEqual([
      "/events/e1/client_campaign_status",
      "/events/e1/client_campaign_status/task",
      "/events/e1/client_campaign_status/task",
    ]);
  });
});

describe("ingest and uploads", () => {
  const summary = {
    eid: "e1",
    from: "2026-11-01",
    to: "2026-11-21",
    tickets: [{ type: "GA", sold: 10, revenue: 250 }],
  };

  it("validates the manual sales ingest before sending", async () => {
    api = await startFakeApi();
    const client = make();
    const bad = await ingestTransactionSummary(client, {
      ...summary,
      from: "2026-11-30",
      tickets: [{ type: "GA", sold: 1.5, revenue: Number.NaN }],
    }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ValidationError);
    expect((bad as ValidationError).issues.map((i) => i.field).sort()).toEqual([
      "body.tickets.0.revenue",
      "body.tickets.0.sold",
      "body.to",
    ]);
    expect(api.requests).toHaveLength(0);
    await ingestTransactionSummary(client, summary);
    expect(JSON.parse(api.calls()[0]?.body ?? "")).toEqual(summary);
  });

  // Constraints Section 2 never states are not enforced.
  it("sends what Section 2 allows: refunds (negative sold and revenue), no ticket rows, any ticket type", async () => {
    api = await startFakeApi();
    const client = make();
    const refunds = { ...summary, tickets: [{ type: "", sold: -2, revenue: -50 }] };
    await ingestTransactionSummary(client, refunds);
    await ingestTransactionSummary(client, { ...summary, tickets: [] });
    expect(api.calls().map((r) => JSON.parse(r.body).tickets)).toEqual([refunds.tickets, []]);
  });

  it("ingestExcel refuses a CSV and sends a real workbook as the multipart part `file` with eid in the query", async () => {
    api = await startFakeApi();
    const client = make();
    await expect(ingestExcel(client, "e1", new TextEncoder().encode("type,sold\nGA,10\n"))).rejects.toThrow(
      /workbook: .*CSV/,
    );
    await expect(ingestExcel(client, "e1", new Uint8Array())).rejects.toThrow(ValidationError);
    expect(api.requests).toHaveLength(0);
    await ingestExcel(client, "e1", makeZip(minimalXlsxEntries()));
    const [call] = api.calls();
    expect(call?.url).toBe("/ingest/transaction_summary/from_excel?eid=e1");
    expect(call?.headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(call?.body).toMatch(/name="file"; filename="transactions.xlsx"/);
  });

  it("the Node helper reads a workbook from a path", async () => {
    api = await startFakeApi();
    const dir = await mkdtemp(join(tmpdir(), "ai-xlsx-"));
    try {
      const file = join(dir, "november.xlsx");
      await writeFile(file, makeZip(minimalXlsxEntries()));
      await ingestExcelFile(make(), "e1", file);
      expect(api.calls()[0]?.body).toMatch(/filename="november.xlsx"/);
      await expect(ingestExcelFile(make(), "e1", join(dir, "missing.xlsx"))).rejects.toThrow(
        /path: cannot be read \(ENOENT\)/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("uploadMedia posts to the media host once, even when the answer is a 5xx", async () => {
    api = await startFakeApi();
    api.route((_req, res) => json(res, 502, {}));
    const error = await uploadMedia(make(), new TextEncoder().encode("GIF89a"), {
      filename: "banner.gif",
      contentType: "image/gif",
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(api.calls().map((r) => r.path)).toEqual(["/api/media/media"]);
    expect(api.calls()[0]?.headers["x-preferred-partner-id"]).toBe("partner-id-acme");
  });
});
