/**
 * `npm run build`'s JavaScript (start-up of the installed package): each public entry as one ES
 * module, with one copy of every class (an error thrown by `/node` is `instanceof` the root
 * entry's) and the lazily loaded parts (the engine, the validators, the drift checker, the metrics,
 * the shared session) in chunks of their own under dist/src/chunks/, loaded on demand.
 *
 * The root entry is one file: every module it loads up front is bundled into dist/src/index.js,
 * and the other entries and the chunks import what they share with it from that file. rolldown's
 * `codeSplitting.groups` expresses that (the one group below is the root's static graph;
 * `allow-extension` lets the root export the bindings the others need, under short names, beside
 * its public ones; the declarations, written by tsc from src/index.ts, never name them). esbuild,
 * which built dist/ before, cannot: it puts code shared by two entries, or by an entry and its
 * dynamic chunks, into shared chunks of their own, so the root loaded 11 files and imported in
 * 11.5–12.6 ms against 5.4–5.9 ms for openapi-fetch alone (1.95–2.35×); one file imports in
 * 6.0–6.9 ms against 6.1 ms (0.99–1.13×; `npm run bench -- --only=e`, two runs of each, one after
 * the other). With one file per module (tsc's output) it took 88 ms.
 *
 * Dependencies stay imports, resolved from the consumer's node_modules. tsc still writes the
 * declarations (`--emitDeclarationOnly`); a checkout's `postinstall` keeps tsc's one-file-per-module
 * output, which needs nothing but TypeScript.
 */
import { resolve } from "node:path";
import { rolldown } from "rolldown";

const ROOT = resolve("src/index.ts");

/** The modules the root entry loads up front: its static imports, followed down (not `import()`). */
let rootGraph;
function inRootGraph(id, ctx) {
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
  return rootGraph.has(id);
}

const bundle = await rolldown({
  input: {
    "src/index": "src/index.ts",
    "src/coordination/index": "src/coordination/index.ts",
    "src/node/index": "src/node/index.ts",
    "src/testing/index": "src/testing/index.ts",
    "src/redis/index": "src/redis/index.ts",
    "src/react-query/index": "src/react-query/index.ts",
  },
  platform: "neutral",
  // Every bare specifier (packages, node: builtins) stays an import.
  external: (id) => !id.startsWith(".") && !id.startsWith("/") && !id.startsWith("\0"),
  transform: { target: "es2022" },
  preserveEntrySignatures: "allow-extension",
  logLevel: "warn",
});
await bundle.write({
  dir: "dist",
  format: "esm",
  sourcemap: true,
  entryFileNames: "[name].js",
  chunkFileNames: "src/chunks/[name]-[hash].js",
  // Doc comments are in the declarations; keep what bundlers and licences read.
  comments: { legal: true, annotation: true, jsdoc: false },
  codeSplitting: {
    groups: [{ debugName: "root entry, up front", name: (id, ctx) => (inRootGraph(id, ctx) ? "index" : null) }],
  },
});
await bundle.close();
