/**
 * createMcpServer as code embeds it (the SDK's Client over its in-memory transport): writes and
 * publishing stay off unless asked for, whatever the caller leaves out, and its options are
 * checked at once. No request is made: nothing here reaches an API.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { createMcpServer, type McpServerOptions } from "../../src/mcp/index.ts";

const client = { baseUrl: "http://127.0.0.1:9/api/v3", credentials: { username: "u", password: "p" } };

async function listed(options: McpServerOptions): Promise<string[]> {
  const server = createMcpServer(options);
  const agent = new Client({ name: "t", version: "1" }, { capabilities: { elicitation: { form: {} } } });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), agent.connect(b)]);
  try {
    return (await agent.listTools()).tools.map((t) => t.name);
  } finally {
    await agent.close();
    await server.close();
  }
}

describe("createMcpServer", () => {
  it("offers the reads only unless allowWrites or allowPublish is true", async () => {
    const unset: McpServerOptions[] = [{ client }, { client, allowWrites: "yes" as never }];
    for (const options of unset) {
      const names = await listed(options);
      expect(names).not.toContain("save_draft");
      expect(names).not.toContain("cancel_draft");
      expect(names).not.toContain("publish_setup");
      expect(names).toContain("read_api");
    }
    expect(await listed({ client, allowWrites: true, allowPublish: true })).toEqual(
      expect.arrayContaining(["save_draft", "cancel_draft", "publish_setup"]),
    );
  });

  it("refuses bad options at once, naming them", () => {
    expect(() => createMcpServer({} as never)).toThrow(/client/);
    expect(() => createMcpServer({ client, deadlineMs: -1 })).toThrow(/deadlineMs/);
    expect(() => createMcpServer({ client, confirmTimeoutMs: Number.NaN })).toThrow(/confirmTimeoutMs/);
  });

  it("refuses a log that is not a function, naming it", () => {
    expect(() => createMcpServer({ client, log: "stderr" as never })).toThrow(
      /^createMcpServer: log must be a function/,
    );
  });

  it.each([
    [
      "throws",
      () => {
        throw new Error("log sink closed");
      },
    ],
    [
      "is async and rejects",
      async () => {
        throw new Error("log sink closed");
      },
    ],
  ])("a log that %s changes no tool call's result, and nothing escapes", async (_label, log) => {
    const escaped: unknown[] = [];
    const onEscaped = (reason: unknown) => escaped.push(reason);
    process.on("unhandledRejection", onEscaped);
    const server = createMcpServer({ client, log });
    const agent = new Client({ name: "t", version: "1" }, { capabilities: { elicitation: { form: {} } } });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), agent.connect(b)]);
    try {
      // A tool this server does not offer: its refusal is a result, logged like any other.
      const result = await agent.callTool({ name: "save_draft", arguments: { eid: "e1", draft: {} } });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toMatch(/save_draft is not offered/);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(escaped).toEqual([]);
    } finally {
      process.off("unhandledRejection", onEscaped);
      await agent.close();
      await server.close();
    }
  });

  it("refuses a bound past what a timer can wait (2^31 - 1 ms: above it a timer fires at once), naming it", () => {
    // A question asked with a timer that fires at once would time out before the person could answer.
    expect(() => createMcpServer({ client, confirmTimeoutMs: 2 ** 31 })).toThrow(/^createMcpServer: confirmTimeoutMs/);
    expect(() => createMcpServer({ client, deadlineMs: 1e12 })).toThrow(/^createMcpServer: deadlineMs/);
    expect(createMcpServer({ client, confirmTimeoutMs: 2 ** 31 - 1 }).client).toBeDefined();
  });

  it("makes its client with a deadline per call no longer than the tool calls' bound", () => {
    expect(createMcpServer({ client }).client.config.retry.deadlineMs).toBe(15_000);
    expect(createMcpServer({ client, deadlineMs: 9_000 }).client.config.retry.deadlineMs).toBe(9_000);
    const lower = { ...client, retry: { deadlineMs: 2_000 } };
    expect(createMcpServer({ client: lower }).client.config.retry.deadlineMs).toBe(2_000);
  });
});
