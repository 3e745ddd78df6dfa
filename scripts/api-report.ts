/**
 * `npm run api:report`: checks that api-report/ (one API Extractor report per entry of package.json
 * `exports`) matches the public API as it is now; an unreviewed change fails with the diff.
 * `npm run api:accept`: rewrites api-report/ (adds a report for a new entry, deletes one for an
 * entry no longer exported); review the diff and commit it.
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  buildApiReports,
  committedApiReports,
  diffApiReports,
  generatedNames,
  REPORT_DIR,
  writeApiReports,
} from "./lib/api-report.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

async function main(): Promise<number> {
  const started = performance.now();
  const fresh = await buildApiReports(root);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (!process.argv.includes("--check")) {
    await writeApiReports(root, fresh);
    console.log(`api:accept: wrote ${[...fresh.keys()].map((n) => `${REPORT_DIR}/${n}`).join(", ")} in ${seconds} s`);
    return 0;
  }
  const diff = diffApiReports(await committedApiReports(root), fresh, await generatedNames(root));
  const moved = diff.entries.filter((e) => e.status !== "unchanged");
  if (moved.length === 0) {
    console.log(`api:report: ${REPORT_DIR}/ matches the public API (${fresh.size} entries, ${seconds} s)`);
    return 0;
  }
  for (const entry of moved) {
    console.log(`\n${REPORT_DIR}/${entry.file}: ${entry.status}`);
    for (const [label, names] of Object.entries({ added: entry.added, removed: entry.removed, changed: entry.changed }))
      if (names.length) console.log(`  ${label}: ${names.join(", ")}`);
    console.log(entry.diff);
  }
  console.log(
    `api:report: the public API moved and ${REPORT_DIR}/ was not updated. If the change is intended, run \`npm run api:accept\` and commit ${REPORT_DIR}/.`,
  );
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
