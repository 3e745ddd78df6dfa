/**
 * `npm run size`: the min+gzip size of the browser entry (src/index.ts: everything but the
 * Node-only file helpers of src/node/), bundled by esbuild as a browser app would (platform
 * browser, ESM, minified, tree-shaken, dependencies included). Exits non-zero over budget, so CI
 * fails when the package grows past it. Also prints anchors a user would compare against.
 *
 * `--budget=<KB>` overrides the budget for one local run (to see the check fail or pass):
 * `npm run size -- --budget=20` fails today.
 */

import { dirname, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

/** The target of issue 5, in KB of 1024 bytes, min+gzip. Not met yet: see BENCHMARKS.md (d). */
export const TARGET_KB = 20;

/**
 * The budget CI keeps (`npm run size` exits 1 above it): a ratchet just above today's size, so the
 * bundle cannot grow unnoticed while it is over the target. Lower it whenever the size comes down;
 * it becomes TARGET_KB once that is met.
 *
 * Raised from 29.5 to 34.5 KB by the hardening issue (+4.8 KB: redaction of every encoding, the
 * /auth budget and cool-down, RFC 9110 Retry-After, the size limit, request-value and header
 * checks, the redirect rules). Security was put first; the request-path issue (zod in a lazily
 * loaded chunk, one pipeline) is where the size comes back down. The tracer option adds 0.6 KB.
 * Raised from 34.5 to 36.5 KB by the workflow-fidelity issue (+1.8 KB, 34.3 → 36.1: one ordered
 * queue per setup and per published cluster, evidence-based PUT mapping, the create check's
 * comparison, the Section 3 guards, polls retrying on their own schedule, the page cap on raw
 * paths, the end on a repeated page, the refusal of the endpoints not for partner tokens).
 * Raised to 37 KB by Hardening II (issue 17, +0.7 KB, 36.1 → 36.8: linear-time walks, the JSON
 * body guard, terminal-safe text).
 * Raised to 37.2 KB by the runtime matrix (issue 14, +0.2 KB, 36.8 → 37.0: the server-only guard
 * in browser workers, the CORS and hidden request id hints of browser errors).
 * Raised to 37.5 KB by the last redaction forms (Unicode NFC/NFD, Latin-1 and double percent-
 * encoding, hex: +0.2 KB, 37.0 → 37.2), leaving 0.3 KB of room.
 */
export const BUDGET_KB = 37.5;

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export interface BundleSize {
  readonly name: string;
  readonly minified: number;
  readonly gzip: number;
}

/** Bundles either a file of the repository or a snippet, as a browser app would, and measures it. */
async function measure(
  name: string,
  input: ({ file: string } | { snippet: string }) & { external?: string[] },
): Promise<BundleSize> {
  const result = await build({
    external: input.external ?? [],
    ...("file" in input
      ? { entryPoints: [resolve(root, input.file)] }
      : { stdin: { contents: input.snippet, resolveDir: root, loader: "ts" as const } }),
    absWorkingDir: root,
    bundle: true,
    platform: "browser",
    format: "esm",
    minify: true,
    treeShaking: true,
    write: false,
    logLevel: "silent",
  });
  const bytes = result.outputFiles[0]?.contents ?? new Uint8Array();
  return { name, minified: bytes.byteLength, gzip: gzipSync(bytes, { level: 9 }).byteLength };
}

/** The browser entry, then the anchors (each a minimal realistic use, so tree-shaking applies). */
export async function measureBundles(): Promise<{
  entry: BundleSize;
  anchors: BundleSize[];
  composition: BundleSize[];
}> {
  const entry = await measure("@audience-intelligence/client (src/index.ts, every export)", { file: "src/index.ts" });
  const anchors = await Promise.all([
    measure("createAudienceClient alone", { snippet: 'export { createAudienceClient } from "./src/index.ts";' }),
    measure("openapi-fetch alone", {
      snippet:
        'import createClient from "openapi-fetch"; export const api = createClient({ baseUrl: "https://example.test" });',
    }),
    measure('zod/mini: import * as z from "zod/mini", one object schema', {
      snippet:
        'import * as z from "zod/mini"; const s = z.object({ id: z.string(), n: z.optional(z.number()) }); export const check = (v: unknown) => s.parse(v);',
    }),
    measure('zod: import * as z from "zod", one object schema', {
      snippet:
        'import * as z from "zod"; const s = z.object({ id: z.string(), n: z.number().optional() }); export const check = (v: unknown) => s.parse(v);',
    }),
  ]);
  // Where the entry's bytes come from: the same bundle with dependencies left out.
  const composition = await Promise.all([
    measure("src/index.ts without zod", { file: "src/index.ts", external: ["zod", "zod/*"] }),
    measure("src/index.ts without zod and openapi-fetch (the overlay's own code)", {
      file: "src/index.ts",
      external: ["zod", "zod/*", "openapi-fetch"],
    }),
  ]);
  return { entry, anchors, composition };
}

export const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

async function main(): Promise<void> {
  const override = process.argv.find((a) => a.startsWith("--budget="));
  const budgetKb = override ? Number(override.slice("--budget=".length)) : BUDGET_KB;
  if (!Number.isFinite(budgetKb) || budgetKb <= 0) throw new Error(`bad ${override}`);
  const { entry, anchors, composition } = await measureBundles();
  const width = Math.max(...[entry, ...anchors, ...composition].map((b) => b.name.length));
  const line = (b: BundleSize) => `${b.name.padEnd(width)}  ${kb(b.gzip).padStart(8)} min+gz  (${kb(b.minified)} min)`;
  console.log(line(entry));
  console.log("anchors:");
  for (const anchor of anchors) console.log(`  ${line(anchor)}`);
  console.log("composition:");
  for (const part of composition) console.log(`  ${line(part)}`);
  const budget = budgetKb * 1024;
  if (entry.gzip > budget) {
    console.error(
      `\nsize budget exceeded: ${kb(entry.gzip)} > ${kb(budget)} (min+gzip of src/index.ts; budget in scripts/bundle-size.ts)`,
    );
    process.exitCode = 1;
  } else {
    console.log(`\nwithin budget: ${kb(entry.gzip)} ≤ ${kb(budget)}`);
  }
  const target = TARGET_KB * 1024;
  console.log(
    entry.gzip <= target
      ? `target met: ≤ ${kb(target)}`
      : `target NOT met: ${kb(entry.gzip)} > ${kb(target)} (issue 5 target; the CI budget above is a ratchet)`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
