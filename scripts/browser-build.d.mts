/** Types of scripts/browser-build.mjs (the browser build's swaps), for scripts/bundle-size.ts and the tests. */
import type { Plugin as EsbuildPlugin } from "esbuild";

export declare const BROWSER_SWAPS: readonly string[];
export declare function browserSibling(path: string): string;
export declare function swapped(root: string, source: string, importer: string | undefined): string | undefined;
export declare function rolldownBrowserSwaps(root: string): { name: string };
export declare function esbuildBrowserSwaps(root: string): EsbuildPlugin;
