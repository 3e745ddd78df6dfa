#!/usr/bin/env node
/**
 * `audience-intelligence-mcp`: the MCP server over stdio. stdout carries the protocol and nothing
 * else; every log line (the server's and the client's, secrets masked) goes to stderr.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { terminalSafe } from "../internal/terminal-text.ts";
import { optionsFromEnv, USAGE } from "./config-from-env.ts";
import { createMcpServer } from "./server.ts";

const log = (line: string): void => {
  process.stderr.write(`audience-intelligence-mcp: ${terminalSafe(line)}\n`);
};

async function main(): Promise<void> {
  // Asked for by a person at a terminal, not by an MCP client: the usage on stdout, nothing served.
  const args = process.argv.slice(2);
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  let options: ReturnType<typeof optionsFromEnv>;
  try {
    options = optionsFromEnv(args, process.env);
  } catch (error) {
    log(error instanceof Error ? error.message : String(error));
    process.stderr.write(`${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  const { client: clientOptions, ...rest } = options;
  const server = createMcpServer({
    ...rest,
    // The client's own lines are redacted by the client; the server masks its own.
    client: { ...clientOptions, logger: { warn: (message) => log(`client: ${message}`) } },
    log,
  });
  await server.connect(new StdioServerTransport());
  const allowed = [options.allowWrites && "writes", options.allowPublish && "publish"].filter(Boolean);
  log(`serving over stdio; reads${allowed.length ? ` and ${allowed.join(" and ")}` : " only"}`);
  const stop = (): void => {
    void server.close().finally(() => process.exit(0));
  };
  process.stdin.on("end", stop);
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error: unknown) => {
  log(`failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
