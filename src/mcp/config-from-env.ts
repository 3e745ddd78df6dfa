/**
 * The bin's configuration, as the demo reads it (scripts/demo.ts): AI_BASE_URL, AI_USERNAME and
 * AI_PASSWORD, optionally AI_PARTNER_ID, AI_MEDIA_URL and AI_AD_PLATFORM, and the flags
 * `--allow-writes` and `--allow-publish` (both off unless given).
 */
import { parseArgs } from "node:util";
import type { McpServerOptions } from "./options.ts";

export const USAGE = `usage: audience-intelligence-mcp [--allow-writes] [--allow-publish]
Serves the Audience Intelligence API as MCP tools over stdio. Environment: AI_BASE_URL, AI_USERNAME,
AI_PASSWORD; optional AI_PARTNER_ID, AI_MEDIA_URL, AI_AD_PLATFORM. Reads are always on; --allow-writes
offers save_draft and cancel_draft, --allow-publish offers publish_setup.`;

/** The server's options from `argv` and `env`; a TypeError names what is missing or unknown. */
export function optionsFromEnv(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Omit<McpServerOptions, "log"> {
  const { values } = parseArgs({
    args: [...argv],
    options: { "allow-writes": { type: "boolean" }, "allow-publish": { type: "boolean" } },
    strict: true,
    allowPositionals: false,
  });
  const missing = ["AI_BASE_URL", "AI_USERNAME", "AI_PASSWORD"].filter((name) => !env[name]);
  if (missing.length) throw new TypeError(`${missing.join(", ")} must be set in the environment`);
  return {
    client: {
      baseUrl: env.AI_BASE_URL as string,
      credentials: { username: env.AI_USERNAME as string, password: env.AI_PASSWORD as string },
      ...(env.AI_PARTNER_ID ? { partnerId: env.AI_PARTNER_ID } : {}),
      ...(env.AI_MEDIA_URL ? { mediaUrl: env.AI_MEDIA_URL } : {}),
      ...(env.AI_AD_PLATFORM ? { adPlatform: env.AI_AD_PLATFORM } : {}),
    },
    allowWrites: values["allow-writes"] === true,
    allowPublish: values["allow-publish"] === true,
  };
}
