/**
 * Workers in a real workerd, through Miniflare 4 (it brings its own workerd; Durable Objects run
 * locally): each script is bundled by esbuild from TypeScript, as wrangler would.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));

/** The compatibility date the test workers declare. */
export const COMPATIBILITY_DATE = "2025-01-01";

/** `entry` (a path under test/support/workerd/, or absolute) bundled as one ES module. */
export async function bundleWorker(entry: string, define: Record<string, string> = {}): Promise<string> {
  const result = await build({
    entryPoints: [entry.startsWith("/") ? entry : join(here, "workerd", entry)],
    bundle: true,
    platform: "neutral",
    format: "esm",
    target: "es2022",
    mainFields: ["module", "main"],
    conditions: ["workerd", "worker", "browser"],
    define,
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]?.text ?? "";
}
