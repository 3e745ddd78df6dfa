/**
 * The browser build (the package's `browser` and `worker` export conditions): the same modules as
 * the server build but for the server-only ones listed here, each replaced by its `*.browser.ts`
 * sibling in src/, a few lines that keep the module's exports and refuse what a page cannot do
 * (Section 5.4: a password and a refresh token are server-side only, so a page never signs in or
 * refreshes). Used by scripts/bundle-dist.mjs (dist/browser/) and scripts/bundle-size.ts (`npm run
 * size`, `npm run bench -- --only=d`); test/unit/bundle-size.test.ts checks both builds.
 */
import { dirname, resolve } from "node:path";

/** The server-only modules the browser build leaves out (paths relative to the repository). */
export const BROWSER_SWAPS = [
  // The /auth sign-in and the refresh-token exchange.
  "src/session/auth-exchange.ts",
  // The /auth failure budget and the cool-down a group of processes shares.
  "src/session/failure-budget.ts",
  // The creation-time check: a sign-in option in the browser build is refused naming the option.
  "src/options/server-only.ts",
  // The AUDIENCE_LOG switch: a page has no environment to read it from.
  "src/options/log-env.ts",
  // The request schemas over zod/mini: the sibling is the same schemas over src/guards/zod-subset.ts
  // (scripts/lib/emit-validators.ts), which reads values as zod does without zod's core (~6 KB).
  "generated/validators.ts",
];

/** The sibling that replaces `path` in the browser build. */
export const browserSibling = (path) => path.replace(/\.ts$/, ".browser.ts");

/**
 * The absolute path the browser build loads for a relative import of `source` from `importer`;
 * undefined when the import is not one of BROWSER_SWAPS.
 * @param {string} root the repository
 * @param {string} source
 * @param {string | undefined} importer
 * @returns {string | undefined}
 */
export function swapped(root, source, importer) {
  if (!importer || !source.startsWith(".")) return undefined;
  const target = resolve(dirname(importer), source);
  return BROWSER_SWAPS.some((path) => resolve(root, path) === target) ? browserSibling(target) : undefined;
}

/** A rolldown plugin that makes the browser build. @param {string} root */
export const rolldownBrowserSwaps = (root) => ({
  name: "browser-swaps",
  resolveId: (source, importer) => swapped(root, source, importer) ?? null,
});

/** The same for esbuild (the size measurement). @param {string} root */
export const esbuildBrowserSwaps = (root) => ({
  name: "browser-swaps",
  setup(build) {
    build.onResolve({ filter: /^\./ }, (args) => {
      const path = swapped(root, args.path, args.importer);
      return path ? { path } : undefined;
    });
  },
});
