/**
 * `npm run build`'s JavaScript (start-up of the installed package): each public entry as one ES
 * module, with one copy of every class (an error thrown by `/node` is `instanceof` the root
 * entry's) and the lazily loaded parts (the engine, the validators, the drift checker, the metrics,
 * the shared session) in chunks of their own under dist/src/chunks/, loaded on demand.
 *
 * The root entry is two files: dist/src/index.js, which exports the public names and nothing
 * else, over one chunk (dist/src/chunks/client-*.js) holding every module the root loads up front;
 * the other entries and the lazily loaded chunks import what they share with the root from that
 * chunk. rolldown's `codeSplitting.groups` expresses that (the one group below is the root's static
 * graph). esbuild, which built dist/ before, cannot: it puts code shared by two entries, or by an
 * entry and its dynamic chunks, into shared chunks of their own, so the root loaded 11 files and
 * imported in 11.5–12.6 ms against 5.4–5.9 ms for openapi-fetch alone (1.95–2.35×). One file
 * (the chunk's modules in index.js itself) imported in 0.99–1.31× openapi-fetch, two files in
 * 0.96–1.34× (`npm run bench -- --only=e` and paired probes): one file would need index.js to
 * export the shared bindings beside its public names (42 more names in `import * as`), so it is
 * two. With one file per module (tsc's output) it took 88 ms.
 *
 * Dependencies stay imports, resolved from the consumer's node_modules. tsc still writes the
 * declarations (`--emitDeclarationOnly`); a checkout's `postinstall` keeps tsc's one-file-per-module
 * output, which needs nothing but TypeScript.
 */
import { resolve } from "node:path";
import { rolldown } from "rolldown";
import { rolldownBrowserSwaps } from "./browser-build.mjs";

const ROOT = resolve("src/index.ts");

/**
 * The modules the root entry loads up front: its static imports, followed down (not `import()`).
 * One set per build (the browser build's graph has the browser siblings).
 */
function rootGroup() {
  let rootGraph;
  return (id, ctx) => {
    if (!rootGraph) {
      rootGraph = new Set();
      const visit = (moduleId) => {
        const info = ctx.getModuleInfo(moduleId);
        if (!info || info.isExternal || rootGraph.has(moduleId)) return;
        rootGraph.add(moduleId);
        for (const next of info.importedIds) visit(next);
      };
      visit(ROOT);
    }
    return rootGraph.has(id) && id !== ROOT ? "client" : null;
  };
}

const ENTRIES = {
  "src/index": "src/index.ts",
  "src/coordination/index": "src/coordination/index.ts",
  "src/node/index": "src/node/index.ts",
  "src/testing/index": "src/testing/index.ts",
  "src/redis/index": "src/redis/index.ts",
  "src/react-query/index": "src/react-query/index.ts",
  "src/cloudflare/index": "src/cloudflare/index.ts",
  // The MCP server and its stdio bin: only these load @modelcontextprotocol/sdk (an optional peer).
  "src/mcp/index": "src/mcp/index.ts",
  "src/mcp/bin": "src/mcp/bin.ts",
};

/**
 * The browser build (package.json's `browser` and `worker` conditions), under dist/browser/: the
 * entries a page imports, with the server-only modules of scripts/browser-build.mjs swapped for
 * their browser siblings. Its own chunks, so `/react-query` shares the root's classes there too.
 */
const BROWSER_ENTRIES = {
  "src/index": ENTRIES["src/index"],
  "src/react-query/index": ENTRIES["src/react-query/index"],
};

async function write(input, dir, plugins) {
  const bundle = await rolldown({
    input,
    plugins,
    platform: "neutral",
    // Every bare specifier (packages, node: builtins) stays an import.
    external: (id) => !id.startsWith(".") && !id.startsWith("/") && !id.startsWith("\0"),
    transform: { target: "es2022" },
    preserveEntrySignatures: "strict",
    logLevel: "warn",
  });
  await bundle.write({
    dir,
    format: "esm",
    sourcemap: true,
    entryFileNames: "[name].js",
    chunkFileNames: "src/chunks/[name]-[hash].js",
    // Doc comments are in the declarations; keep what bundlers and licences read.
    comments: { legal: true, annotation: true, jsdoc: false },
    codeSplitting: {
      // The root's own module stays the entry (its public exports only); what it loads goes in "client".
      groups: [{ debugName: "root entry, up front", name: rootGroup() }],
    },
  });
  await bundle.close();
}

await write(ENTRIES, "dist", []);
await write(BROWSER_ENTRIES, "dist/browser", [rolldownBrowserSwaps(resolve("."))]);
