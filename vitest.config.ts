import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (file: string) => fileURLToPath(new URL(`./src/${file}`, import.meta.url));

export default defineConfig({
  // The package's own entries by name, as a consumer imports them (the README's testing example
  // runs as test/testing/readme-example.test.ts); tsconfig.json maps the same names for tsc.
  resolve: {
    alias: [
      { find: /^@audience-intelligence\/client\/testing$/, replacement: src("testing/index.ts") },
      { find: /^@audience-intelligence\/client\/react-query$/, replacement: src("react-query/index.ts") },
      { find: /^@audience-intelligence\/client\/redis$/, replacement: src("redis/index.ts") },
      { find: /^@audience-intelligence\/client$/, replacement: src("index.ts") },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/prism-global-setup.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
