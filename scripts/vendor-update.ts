/**
 * `npm run vendor:update -- <new-vendor-file.yaml> [--accept] [--json PATH] [--markdown PATH]` — what a consumer's CI runs when the
 * vendor publishes a new API description (docs/REGENERATING.md):
 *
 * 1. replace openapi/audience-intelligence.yaml with the new file;
 * 2. regenerate generated/ (`npm run generate`: redocly lint, overlays, types, validators);
 * 3. type-check the repository against the new types (`npm run typecheck`);
 * 4. run the contract suite against a Prism mock of the new description (`vitest run test/contract`);
 * 5. type-check the pinned consumer fixtures (README examples, the packaging tests' consumer app);
 * 6. rebuild the public API reports (api-report/, one per `exports` entry) and diff them;
 * 7. print the report: the semver bump, every change classified (breaking / additive / prose) with
 *    its JSON pointer, the public API movement, the fixtures that fail, a CHANGELOG draft and the
 *    steps (`--json PATH` and `--markdown PATH` write it for machines and as a pull request body).
 *
 * Exit status: 0 when every step passed and no operation changed (or `--accept` was given);
 * 1 when a step failed; 2 when every step passed but operations changed, so that a scheduled job
 * stops for a person to read the diff. The working tree keeps the new files either way
 * (`git diff`, or `git checkout -- openapi generated` to undo).
 */
import { copyFile, readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parse } from "yaml";
import {
  buildApiReports,
  committedApiReports,
  diffApiReports,
  generatedNames,
  type PublicApiDiff,
  writeApiReports,
} from "./lib/api-report.ts";
import { classifyChanges } from "./lib/classify-changes.ts";
import { checkFixtures, formatFailures } from "./lib/consumer-fixtures.ts";
import type { Doc } from "./lib/json-ref.ts";
import { diffOperations, formatDiff, hasOperationChanges } from "./lib/operations-diff.ts";
import { runNode } from "./lib/run-node.ts";
import { semverBump } from "./lib/semver-bump.ts";
import { formatRefusals, isVersionToken, type Refusal, refusals } from "./lib/vendor-input.ts";
import { proseOrMetadataChanges } from "./lib/vendor-prose.ts";
import { buildReport, formatMarkdown, formatText, type Report, type Step } from "./lib/vendor-report.ts";

export {
  diffOperations,
  formatDiff,
  hasOperationChanges,
  type Operation,
  type OperationsDiff,
  operationsOf,
} from "./lib/operations-diff.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const vendorFile = join(root, "openapi", "audience-intelligence.yaml");
const mergedFile = join(root, "generated", "openapi.json");

interface Ran {
  readonly step: Step;
  readonly output: string;
}

/** A check in a child process; its output is kept and printed when every check has finished. */
async function step(name: string, args: string[]): Promise<Ran> {
  const started = performance.now();
  const { status, output } = await runNode(args, root);
  return { step: { name, status: status === 0 ? "passed" : "failed", seconds: seconds(started) }, output };
}

/** A check run in this process; an exception fails it, with its message. */
async function stepIn<T>(
  name: string,
  run: () => Promise<{ value: T; passed: boolean; output: string }>,
): Promise<Ran & { value: T | undefined }> {
  const started = performance.now();
  try {
    const { value, passed, output } = await run();
    return { step: { name, status: passed ? "passed" : "failed", seconds: seconds(started) }, output, value };
  } catch (error) {
    const output = error instanceof Error ? error.message : String(error);
    return { step: { name, status: "failed", seconds: seconds(started) }, output, value: undefined };
  }
}

const seconds = (since: number) => (performance.now() - since) / 1000;

function option(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

const versionOf = (doc: Doc): string | undefined => {
  const info = doc.info;
  return typeof info === "object" && info !== null && !Array.isArray(info) && typeof info.version === "string"
    ? info.version
    : undefined;
};

interface Outputs {
  readonly jsonOut: string | undefined;
  readonly markdownOut: string | undefined;
  readonly cwd: string;
}

async function writeReport(report: Report, o: Outputs): Promise<void> {
  if (o.jsonOut) await writeFile(resolve(o.cwd, o.jsonOut), `${JSON.stringify(report, null, 2)}\n`);
  if (o.markdownOut) await writeFile(resolve(o.cwd, o.markdownOut), formatMarkdown(report));
}

/**
 * The report when nothing ran: the file is the committed one (bump `none`, no changes), or it was
 * refused (the one failing step says so, `refused` says why). A workflow that reads the report
 * finds one whatever the input.
 */
async function writeQuickReport(
  o: Outputs & { before: string | undefined; after: string | undefined; refused: Refusal[]; started: number },
): Promise<void> {
  const report = buildReport({
    classification: { changes: [], grouped: [], operations: { added: [], removed: [], changed: [], unchanged: 0 } },
    // A refused version is not repeated: the refusal names it.
    apiVersion: { before: o.before, after: isVersionToken(o.after) ? o.after : undefined },
    comparedFrom: o.refused.length
      ? "nothing (the vendor file was refused)"
      : "openapi/audience-intelligence.yaml (identical)",
    publicApi: undefined,
    consumers: undefined,
    steps: o.refused.length ? [{ name: "vendor file is data only", status: "failed" }] : [],
    proseOrMetadata: [],
    refused: o.refused,
    seconds: { classified: seconds(o.started), total: seconds(o.started) },
  });
  await writeReport(report, o);
}

const USAGE =
  "usage: npm run vendor:update -- <path-to-new-vendor-description.yaml> [--accept] [--json PATH] [--markdown PATH]";

async function main(argv: string[]): Promise<number> {
  const started = performance.now();
  const accept = argv.includes("--accept");
  const jsonOut = option(argv, "--json");
  const markdownOut = option(argv, "--markdown");
  const valued = new Set([jsonOut, markdownOut].filter((v) => v !== undefined));
  const files = argv.filter((a, i) => !a.startsWith("--") && !(valued.has(a) && argv[i - 1]?.startsWith("--")));
  if (files.length !== 1 || (argv.includes("--json") && !jsonOut) || (argv.includes("--markdown") && !markdownOut)) {
    console.error(USAGE);
    return 1;
  }
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const source = resolve(cwd, files[0] as string);
  const incoming = await readFile(source, "utf8").catch(() => undefined);
  if (incoming === undefined) {
    console.error(`vendor:update: cannot read ${source}`);
    return 1;
  }
  let doc: Doc;
  try {
    doc = parse(incoming) as Doc;
  } catch (error) {
    console.error(`vendor:update: ${source} is not valid YAML: ${(error as Error).message}`);
    return 1;
  }
  const current = await readFile(vendorFile, "utf8");
  const vendorBefore = parse(current) as Doc;
  const quick = { before: versionOf(vendorBefore), jsonOut, markdownOut, cwd, started };
  // Data only, before anything reads the file: refused, it replaces nothing and nothing runs.
  const refused = refusals(doc);
  if (refused.length) {
    console.log(`vendor:update: ${formatRefusals(source, refused)}`);
    await writeQuickReport({ ...quick, after: versionOf(doc), refused });
    return 1;
  }
  if (incoming === current) {
    console.log(`vendor:update: ${source} is identical to openapi/audience-intelligence.yaml; nothing to do.`);
    await writeQuickReport({ ...quick, after: versionOf(doc), refused: [] });
    return 0;
  }

  const before = JSON.parse(await readFile(mergedFile, "utf8")) as Doc;
  const apiBefore = await committedApiReports(root);
  await copyFile(source, vendorFile);
  console.log(`vendor:update: openapi/audience-intelligence.yaml replaced by ${source}`);

  const tsx = join(root, "node_modules", "tsx", "dist", "cli.mjs");
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  const vitest = join(root, "node_modules", "vitest", "vitest.mjs");
  console.log("\n== vendor:update: generate");
  const generation = await step("generate", [tsx, "scripts/generate.ts"]);
  process.stdout.write(generation.output);
  const steps: Step[] = [generation.step];
  const generated = generation.step.status === "passed";

  // The merged description when generation succeeded; else (an overlay no longer applies, lint
  // errors) the vendor files themselves, which still shows what the vendor changed.
  const after = generated ? (JSON.parse(await readFile(mergedFile, "utf8")) as Doc) : doc;
  const [was, now] = generated ? [before, after] : [vendorBefore, after];
  const diff = diffOperations(was, now);
  const classification = classifyChanges(was, now);
  const classified = seconds(started);
  const comparedFrom = generated ? "generated/openapi.json" : "vendor file, overlays not applied";
  // The classification is known now, before the slower checks: say so at once.
  const early = semverBump({ changes: classification.changes });
  console.log(
    `\n== vendor:update: classified in ${classified.toFixed(1)} s: ${early} by the description alone (${classification.grouped.length} changes); checks follow`,
  );

  let publicApi: PublicApiDiff | undefined;
  let consumers: Report["consumers"];
  const checks = [
    "typecheck",
    "contract suite (test/contract)",
    "consumer fixtures (test/consumers/fixtures)",
    "public API report (api-report/)",
  ] as const;
  if (generated) {
    // Side by side: the checks read the regenerated files and write nothing another one reads.
    const [typecheck, contract, [fixtures, api]] = await Promise.all([
      step(checks[0], [tsc, "--noEmit"]),
      step(checks[1], [vitest, "run", "test/contract"]),
      (async () => {
        const fixtures = await stepIn(checks[2], async () => {
          const result = await checkFixtures(root);
          const output = formatFailures(result).join("\n");
          return { value: result, passed: result.failures.length === 0 && result.other.length === 0, output };
        });
        const api = await stepIn(checks[3], async () => {
          const fresh = await buildApiReports(root);
          // The regenerated package's reports replace the committed ones, like generated/: the
          // diff in the report is what a reviewer accepts by merging.
          await writeApiReports(root, fresh);
          return { value: diffApiReports(apiBefore, fresh, await generatedNames(root)), passed: true, output: "" };
        });
        return [fixtures, api] as const;
      })(),
    ]);
    for (const ran of [typecheck, contract, fixtures, api]) {
      console.log(`\n== vendor:update: ${ran.step.name}`);
      if (ran.output.trim()) console.log(ran.output.trimEnd());
      steps.push(ran.step);
    }
    if (fixtures.value) consumers = { fixtures: fixtures.value.fixtures, failures: fixtures.value.failures };
    publicApi = api.value;
  } else {
    for (const name of checks) steps.push({ name, status: "skipped" });
  }

  const report = buildReport({
    classification,
    apiVersion: diff.versions,
    comparedFrom,
    publicApi,
    consumers,
    steps,
    proseOrMetadata: proseOrMetadataChanges(vendorBefore, doc),
    refused: [],
    seconds: { classified, total: seconds(started) },
  });
  console.log(`\n== vendor:update: operations that changed (${comparedFrom}, before → after)`);
  console.log(formatDiff(diff));
  console.log(`\n${formatText(report)}`);
  await writeReport(report, { jsonOut, markdownOut, cwd });

  if (report.failingSteps.length) {
    console.log("\nvendor:update FAILED: see the failing step above and the operations that changed.");
    return 1;
  }
  if ((hasOperationChanges(diff) || report.bump === "major" || report.bump === "minor") && !accept) {
    console.log(
      `\nvendor:update: every check passed, but operations changed (${report.bump}). Review the diff above, then commit`,
    );
    console.log("openapi/, generated/ and api-report/ (or re-run with --accept to exit 0).");
    return 2;
  }
  console.log("\nvendor:update: every check passed.");
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
