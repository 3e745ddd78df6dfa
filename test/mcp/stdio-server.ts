/**
 * The bin as an agent's MCP client starts it: the SDK's own `Client` over `StdioClientTransport`,
 * spawning `audience-intelligence-mcp` (its TypeScript source, through tsx) with the demo's
 * environment. Everything the server says — results, elicitation messages, stderr, any line on
 * stdout that is not the protocol — is kept for the tests to scan.
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type CallToolResult, ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const PASSWORD = "pässword/+=&<x>~~~???-mcp-secret";
const USERNAME = "agent@example.test";

/** How the test's person answers a question; undefined: the client cannot ask (no elicitation). */
export type Person = (message: string) => ElicitResult | Promise<ElicitResult>;

export interface Connected {
  readonly client: Client;
  /** Calls a tool; the result as the client validated it. */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Every result, elicitation message and stderr line so far, as one text to scan. */
  said(): string;
  /** The questions the person was asked. */
  readonly asked: string[];
  /** Errors of the transport: a line on stdout that is not JSON-RPC lands here. */
  readonly protocolErrors: Error[];
  stderr(): string;
  close(): Promise<void>;
}

export async function connect(options: {
  baseUrl: string;
  flags?: string[];
  person?: Person;
  env?: Record<string, string>;
}): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", "src/mcp/bin.ts", ...(options.flags ?? [])],
    cwd: root,
    stderr: "pipe",
    env: {
      PATH: process.env.PATH ?? "",
      AI_BASE_URL: options.baseUrl,
      AI_USERNAME: USERNAME,
      AI_PASSWORD: PASSWORD,
      AI_AD_PLATFORM: "adplatform-test",
      ...options.env,
    },
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const client = new Client(
    { name: "mcp-test", version: "1.0.0" },
    { capabilities: options.person ? { elicitation: { form: {} } } : {} },
  );
  const asked: string[] = [];
  const results: string[] = [];
  const protocolErrors: Error[] = [];
  client.onerror = (error) => protocolErrors.push(error);
  const person = options.person;
  if (person)
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return person(request.params.message);
    });
  await client.connect(transport);
  return {
    client,
    asked,
    protocolErrors,
    stderr: () => stderr,
    said: () => [...results, ...asked, stderr].join("\n"),
    async call(name, args = {}) {
      const result = (await client.callTool({ name, arguments: args }, undefined, {
        timeout: 120_000,
      })) as CallToolResult;
      results.push(JSON.stringify(result));
      return result;
    },
    close: () => client.close(),
  };
}

/** The text of a result. */
export const textOf = (result: CallToolResult): string =>
  result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
