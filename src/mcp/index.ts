/**
 * `@audience-intelligence/client/mcp`: a Model Context Protocol server over one client (docs/MCP.md).
 * Needs `@modelcontextprotocol/sdk` (an optional peer dependency: only this entry loads it). The
 * `audience-intelligence-mcp` bin serves it over stdio.
 * @module @audience-intelligence/client/mcp
 */
export type { McpServerOptions } from "./options.ts";
export { type AudienceMcpServer, createMcpServer } from "./server.ts";
