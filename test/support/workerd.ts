/**
 * Workers in a real workerd, through Miniflare 4 (it brings its own workerd; Durable Objects run
 * locally): each script is bundled by esbuild from TypeScript, as wrangler would.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { Miniflare } from "miniflare";

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

/**
 * A Miniflare whose scratch folder (its Durable Objects' storage, the shared session's tokens
 * included) is gone once `dispose()` resolves. Miniflare removes its own without waiting for it, so
 * a test process that ends first leaves it in the system's temporary folder. It names that folder
 * from `os.tmpdir()` in its constructor: here a folder of ours, removed after the dispose.
 */
export function startMiniflare(options: ConstructorParameters<typeof Miniflare>[0]): Miniflare {
  const scratch = mkdtempSync(join(tmpdir(), "ai-miniflare-"));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = scratch;
  let mf: Miniflare;
  try {
    mf = new Miniflare(options);
  } finally {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
  }
  const dispose = mf.dispose.bind(mf);
  mf.dispose = async () => {
    try {
      await dispose();
    } finally {
      await rm(scratch, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    }
  };
  return mf;
}
