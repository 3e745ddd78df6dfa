/**
 * createMcpServer: the Model Context Protocol server over one client. The tool list is computed
 * for each connection: reads always; save_draft and cancel_draft only with `allowWrites`;
 * publish_setup only with `allowPublish`; the two tools that ask a person (cancel_draft,
 * publish_setup) only to a client that declared form-mode elicitation. A tool not listed sends
 * nothing when called. Every failure is a tool result (isError), never a protocol error.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { API_VERSION, type AudienceClient, createAudienceClient } from "../index.ts";
import { type Shared, toolContext } from "./context.ts";
import { errorResult, ToolRefusal } from "./errors.ts";
import { type McpServerOptions, normalizeMcpOptions } from "./options.ts";
import { publishTool } from "./publish-tool.ts";
import { readApiTool } from "./read-api.ts";
import { readTools } from "./read-tools.ts";
import { okResult } from "./results.ts";
import { jsonSchemaOf, parseArgs } from "./schemas.ts";
import { withSecretsKnown } from "./secrets.ts";
import { setupTools } from "./setup-tools.ts";
import type { ToolSpec } from "./tool.ts";

/** What {@link createMcpServer} returns. */
export interface AudienceMcpServer {
  /** The SDK's server: connect it to a transport (stdio, Streamable HTTP). */
  readonly server: Server;
  /** The one client every tool call goes through (its session, rate budget and guards). */
  readonly client: AudienceClient;
  /** Connects the server to `transport` (the SDK's `StdioServerTransport`, …). */
  connect(transport: Transport): Promise<void>;
  /** Closes the connection. */
  close(): Promise<void>;
}

const INSTRUCTIONS =
  "Tools of the Audience Intelligence API: events, forecasts, cluster suggestions, campaign results and setups. A result over 64 KB is cut and carries `truncated`, a note on how to ask for less. Writes need the server's --allow-writes, publishing --allow-publish; cancelling and publishing ask the person first.";

/**
 * The MCP server over one client made from `options.client`: reads freely, writes only when
 * allowed, and never publishes or cancels without a person's yes.
 *
 * @example
 * const { connect } = createMcpServer({ client: { baseUrl, credentials }, allowWrites: true });
 * await connect(new StdioServerTransport());
 */
export function createMcpServer(options: McpServerOptions): AudienceMcpServer {
  const config = normalizeMcpOptions(options);
  const { options: clientOptions, secrets } = withSecretsKnown(config.client);
  const client = createAudienceClient(clientOptions);
  const server = new Server(
    { name: "audience-intelligence", version: API_VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  const tools = [...readTools(client), readApiTool(client), ...setupTools(client), publishTool(client)];
  const byName = new Map(tools.map((t) => [t.name, t]));
  const shared: Shared = { ...config, server, client, secrets, queues: new Map() };
  const log = (line: string): void => config.log?.(secrets.text(line));

  const offered = (tool: ToolSpec<never>): string | undefined => {
    if (tool.access === "write" && !config.allowWrites) return "it needs the server started with --allow-writes";
    if (tool.access === "publish" && !config.allowPublish) return "it needs the server started with --allow-publish";
    if (tool.asks && !server.getClientCapabilities()?.elicitation?.form)
      return "it asks the person first, and this client cannot ask (no form elicitation)";
    return undefined;
  };
  const listed = new Map<string, Tool>();
  const definition = (tool: ToolSpec<never>): Tool => {
    let def = listed.get(tool.name);
    if (!def) {
      def = {
        name: tool.name,
        description: tool.description,
        inputSchema: jsonSchemaOf(tool.input) as Tool["inputSchema"],
        outputSchema: tool.output as Tool["outputSchema"],
        annotations: tool.annotations,
      };
      listed.set(tool.name, def);
    }
    return def;
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.filter((t) => offered(t) === undefined).map(definition),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    const started = performance.now();
    const tool = byName.get(name);
    const why = tool ? offered(tool) : "there is no such tool";
    let result: CallToolResult;
    try {
      if (!tool || why) throw new ToolRefusal(`${name.slice(0, 64)} is not offered: ${why}; nothing was sent.`);
      result = okResult(await tool.run(parseArgs(tool.input, args), toolContext(shared, extra.signal)), secrets);
    } catch (error) {
      result = errorResult(error, client, secrets, config.deadlineMs);
    }
    const ms = Math.round(performance.now() - started);
    log(`tool ${name.slice(0, 64)}: ${result.isError ? "error" : "ok"} in ${ms} ms`);
    return result;
  });

  return {
    server,
    client,
    connect: (transport) => server.connect(transport),
    close: () => server.close(),
  };
}
