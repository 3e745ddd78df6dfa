/**
 * `npm run build`'s JavaScript (issue 18: start-up of the installed package): each public entry as
 * one ES module, code shared between entries in chunks under dist/src/chunks/ (one copy of every
 * class: an error thrown by `/node` is `instanceof` the root entry's), the validators and other
 * lazily loaded parts in chunks of their own. Node then loads a handful of files instead of about a
 * hundred (import: 88 ms with one file per module, 24 ms bundled, openapi-fetch alone 11 ms).
 * Dependencies stay imports (`packages: "external"`), resolved from the consumer's node_modules.
 * tsc still writes the declarations (`--emitDeclarationOnly`); a checkout's `postinstall` keeps
 * tsc's one-file-per-module output, which needs nothing but TypeScript.
 */
import { build } from "esbuild";

await build({
  entryPoints: {
    "src/index": "src/index.ts",
    "src/coordination/index": "src/coordination/index.ts",
    "src/node/index": "src/node/index.ts",
    "src/testing/index": "src/testing/index.ts",
    "src/redis/index": "src/redis/index.ts",
    "src/react-query/index": "src/react-query/index.ts",
  },
  outdir: "dist",
  chunkNames: "src/chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "neutral",
  packages: "external",
  target: "es2022",
  sourcemap: true,
  logLevel: "warning",
});
