/**
 * The tool set as an agent's MCP client sees it, over stdio against the bin and the stateful mock:
 * which tools each flag and client capability offers (a tool not offered sends nothing when
 * called), the size of the list, each tool's contract, every read tool's answer, arguments refused
 * by field with nothing sent, API failures as tool results, and a huge answer cut to 64 KB.
 */
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MAX_RESULT_BYTES } from "../../src/mcp/results.ts";
import { type MockApi, startMockApi } from "../../src/testing/index.ts";
import { type Connected, connect, textOf } from "./stdio-server.ts";

const READS = [
  "list_events",
  "get_event",
  "read_benchmark",
  "read_prediction",
  "suggest_clusters",
  "campaign_results",
  "read_api",
  "get_setup",
];
const yes = () => ({ action: "accept" as const, content: { yes: true } });

let api: MockApi;
const servers: Connected[] = [];
beforeAll(async () => {
  api = await startMockApi();
}, 60_000);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await api?.close();
});
beforeEach(() => {
  api.useScenario("healthy");
  api.reset();
});

async function start(flags: string[], person?: typeof yes): Promise<Connected> {
  const server = await connect({ baseUrl: api.baseUrl, flags, ...(person ? { person } : {}) });
  servers.push(server);
  return server;
}
const sent = () => api.requests().filter((r) => r.method !== "GET" && !r.path.startsWith("/auth"));
const names = async (s: Connected) => (await s.client.listTools()).tools.map((t) => t.name).sort();

describe("which tools are offered", () => {
  it("by default: the reads only; a write or publish called anyway sends nothing", async () => {
    const s = await start([], yes);
    expect(await names(s)).toEqual([...READS].sort());
    for (const [name, args] of [
      ["save_draft", { eid: "evt-1001", draft: { goal: "ROAS" } }],
      ["cancel_draft", { eid: "evt-1001" }],
      ["publish_setup", { eid: "evt-1001" }],
    ] as const) {
      const result = await s.call(name, args);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(
        /not offered: it needs the server started with --allow-(writes|publish); nothing was sent/,
      );
    }
    expect(api.requests()).toEqual([]);
    expect(s.asked).toEqual([]);
  }, 60_000);

  it("--allow-writes adds save_draft and cancel_draft; --allow-publish adds publish_setup", async () => {
    const [writes, publish, both] = await Promise.all([
      start(["--allow-writes"], yes),
      start(["--allow-publish"], yes),
      start(["--allow-writes", "--allow-publish"], yes),
    ]);
    expect(await names(writes)).toEqual([...READS, "save_draft", "cancel_draft"].sort());
    expect(await names(publish)).toEqual([...READS, "publish_setup"].sort());
    expect(await names(both)).toEqual([...READS, "save_draft", "cancel_draft", "publish_setup"].sort());
  }, 60_000);

  it("a client that cannot ask a person is not offered cancel_draft or publish_setup, and calling them sends nothing", async () => {
    const s = await start(["--allow-writes", "--allow-publish"]);
    expect(await names(s)).toEqual([...READS, "save_draft"].sort());
    const draft = await s.call("save_draft", { eid: "evt-ask", draft: { goal: "ROAS", total_budget: 100 } });
    expect(draft.isError).toBeFalsy();
    api.reset();
    for (const name of ["cancel_draft", "publish_setup"]) {
      const result = await s.call(name, { eid: "evt-ask" });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/asks the person first, and this client cannot ask .*nothing was sent/);
    }
    expect(api.requests()).toEqual([]);
  }, 60_000);
});

describe("the tool list", () => {
  let s: Connected;
  beforeAll(async () => {
    s = await start(["--allow-writes", "--allow-publish"], yes);
  }, 60_000);

  it("costs under 4 000 tokens (JSON characters / 4), at the newest protocol revision", async () => {
    const list = await s.client.listTools();
    const chars = JSON.stringify(list).length;
    console.info(`tools/list: ${list.tools.length} tools, ${chars} characters, ~${Math.ceil(chars / 4)} tokens`);
    expect(chars / 4).toBeLessThan(4000);
    expect(LATEST_PROTOCOL_VERSION).toBe("2025-11-25");
    expect(s.client.getInstructions()).toMatch(/64 KB/);
  });

  it("gives every tool a description, input and output schemas and its annotations", async () => {
    for (const tool of (await s.client.listTools()).tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(30);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type, tool.name).toBe("object");
      const reads = READS.includes(tool.name);
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(reads);
      expect(tool.annotations?.destructiveHint, tool.name).toBe(
        reads ? undefined : ["cancel_draft", "publish_setup"].includes(tool.name),
      );
    }
    const list = (await s.client.listTools()).tools;
    const draft = list.find((t) => t.name === "save_draft")?.inputSchema.properties?.draft as {
      properties: Record<string, { enum?: string[]; format?: string }>;
    };
    // The description's own SetupPayload: the goal's enum, the dates.
    expect(draft.properties.goal?.enum).toEqual(["UTILIZATION", "ROAS", "VISIBILITY", "LINK_CLICKS"]);
    expect(draft.properties.start_date?.format).toBe("date");
    const readApi = list.find((t) => t.name === "read_api")?.inputSchema.properties?.operation as { enum: string[] };
    expect(readApi.enum).toContain("GET /events/{eid}/tickets");
    expect(readApi.enum.every((n) => n.startsWith("GET /"))).toBe(true);
  });

  it("answers every read tool with structured content and a short text", async () => {
    const calls: Array<[string, Record<string, unknown>, RegExp]> = [
      ["list_events", { maxItems: 2 }, /2 event\(s\) on page 1; more on page 2/],
      ["get_event", { eid: "evt-1001" }, /Event evt-1001/],
      ["read_benchmark", { eid: "evt-1001", type: "capacity" }, /4 value\(s\) of event evt-1001, read as percent/],
      ["read_prediction", { eid: "evt-1001", type: "ticket_count" }, /of event evt-1001/],
      ["suggest_clusters", { eid: "evt-1001", budget: 1500, goal: "ROAS" }, /2 suggested cluster\(s\)/],
      ["campaign_results", { eid: "evt-1001" }, /2 campaign result\(s\)/],
      ["get_setup", { eid: "evt-none" }, /Setup of event evt-none: none/],
      ["read_api", { operation: "GET /messages/totalunread" }, /answered/],
    ];
    for (const [name, args, text] of calls) {
      const result = await s.call(name, args);
      expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
      expect(textOf(result)).toMatch(text);
      expect(textOf(result).length).toBeLessThan(400);
      expect(result.structuredContent).toBeTypeOf("object");
    }
    const benchmark = await s.call("read_benchmark", { eid: "evt-1001", type: "capacity" });
    expect(benchmark.structuredContent).toMatchObject({ unit: "percent", fractions: [0.825, 0.91, 1.042, 0.978] });
    const page = await s.call("list_events", { maxItems: 2 });
    expect(page.structuredContent).toMatchObject({ page: 1, nextPage: 2 });
    expect(api.requests().find((r) => r.path === "/events/")?.query).toMatchObject({ page: ["1"], limit: ["2"] });
    expect(sent()).toEqual([]);
  }, 60_000);

  it("refuses invalid arguments by field, sending nothing", async () => {
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ["get_event", {}, /eid: must be a string/],
      ["read_benchmark", { eid: "evt-1001", type: "weekly" }, /type: must be one of "capacity", "ticket_count"/],
      ["save_draft", { eid: "evt-1001", draft: { total_budget: -5 } }, /draft\.total_budget: must be > 0/],
      [
        "save_draft",
        { eid: "evt-1001", draft: { start_date: "2027-02-30" } },
        /draft\.start_date: must be a real calendar date/,
      ],
      ["publish_setup", { eid: "evt-1001", confirm: true }, /confirm: is not an argument of this tool/],
      ["list_events", { maxItems: 100_000 }, /maxItems: /],
      ["read_api", { operation: "POST /campaigns/" }, /operation: must be one of "GET \//],
      [
        "read_api",
        { operation: "DELETE /setup_processes/{eid}", path: { eid: "evt-1001" } },
        /operation: must be one of/,
      ],
      [
        "read_api",
        { operation: "GET /events/{eid}", path: { eid: "evt-1001", other: "x" } },
        /path\.other: not a parameter/,
      ],
      ["read_api", { operation: "GET /events/{eid}/lookout_prediction", path: { eid: "e" }, query: {} }, /query\.type/],
    ];
    for (const [name, args, text] of cases) {
      const result = await s.call(name, args);
      expect(result.isError, name).toBe(true);
      expect(textOf(result)).toMatch(text);
      expect(textOf(result)).toMatch(/nothing was sent/);
    }
    expect(api.requests()).toEqual([]);
    expect(s.asked).toEqual([]);
  }, 60_000);

  it("says an API failure as a tool result naming the status, the code and the request id", async () => {
    const result = await s.call("read_api", { operation: "GET /setup_processes/{eid}", path: { eid: "evt-absent" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/HTTP 404 \(error\.setup_process\.not_found\), request id mock-\d+/);
  });

  it("cuts an answer over 64 KB, saying how to narrow the request", async () => {
    const creatives = Array.from({ length: 1500 }, (_, i) => `creative ${i} ${"x".repeat(120)}`);
    const saved = await s.call("save_draft", { eid: "evt-huge", draft: { goal: "ROAS", creatives } });
    expect(saved.isError, textOf(saved)).toBeFalsy();
    const stored = api.requests().find((r) => r.method === "POST" && r.path === "/setup_processes/evt-huge");
    // All of it was sent: the mock logs a body over 64 KiB as a note of its type and size.
    const sentBytes = Number(/^\[application\/json, (\d+) bytes\]$/.exec(String(stored?.body))?.[1]);
    expect(sentBytes).toBeGreaterThan(1500 * 120);
    for (const result of [saved, await s.call("get_setup", { eid: "evt-huge" })]) {
      expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThanOrEqual(MAX_RESULT_BYTES);
      const content = result.structuredContent as { truncated: string; draft: { creatives: string[]; goal: string } };
      expect(content.truncated).toMatch(/cut to fit 64 KB.*read its fields with read_api/);
      expect(content.draft.goal).toBe("ROAS");
      expect(content.draft.creatives.length).toBeLessThan(1500);
      expect(content.draft.creatives[0]).toMatch(/^creative 0 /);
      expect(textOf(result)).toMatch(/was cut to fit 64 KB/);
    }
  }, 60_000);

  it("writes nothing to stdout but the protocol; its log lines go to stderr", () => {
    expect(s.protocolErrors).toEqual([]);
    expect(s.stderr()).toMatch(/serving over stdio; reads and writes and publish/);
    expect(s.stderr()).toMatch(/tool list_events: ok in \d+ ms/);
  });
});
