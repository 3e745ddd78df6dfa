/**
 * `npm run consumers:check`: type-checks the pinned consumer fixtures (test/consumers/fixtures/)
 * against the package as it is now; each failure names the fixture, the line and the operation.
 * `npm run consumers:pin`: rewrites the fixtures from README.md and test/packaging/consumer-app.ts
 * (after a release, when consumers have caught up with the examples).
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { checkFixtures, formatFailures, pinFixtures } from "./lib/consumer-fixtures.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

async function main(): Promise<number> {
  if (process.argv.includes("--pin")) {
    console.log(`consumers:pin: wrote ${(await pinFixtures(root)).join(", ")}`);
    return 0;
  }
  const result = await checkFixtures(root);
  const lines = formatFailures(result);
  if (lines.length === 0) {
    console.log(`consumers:check: ${result.fixtures.length} fixtures compile against the package`);
    return 0;
  }
  for (const line of lines) console.log(line);
  return 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
