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
import { type Doc, deref, isObject, type Json } from "./lib/json-ref.ts";
import { runNode } from "./lib/run-node.ts";
import { semverBump } from "./lib/semver-bump.ts";
import { buildReport, formatMarkdown, formatText, type Report, type Step } from "./lib/vendor-report.ts";

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;
/** Keys that do not change the contract (prose, grouping): a change limited to these is reported apart. */
const PROSE = new Set(["description", "summary", "example", "examples", "externalDocs", "tags"]);

/** One operation, self-contained: local `$ref`s resolved, path-level parameters merged in. */
export interface Operation {
  readonly key: string;
  readonly operationId: string | undefined;
  readonly body: Json;
}

export interface OperationsDiff {
  readonly added: Operation[];
  readonly removed: Operation[];
  /** Contract changes, each with its differing leaves (`path: before → after`). */
  readonly changed: { key: string; operationId: string | undefined; changes: string[] }[];
  /** Operations whose only differences are prose (descriptions, summaries, examples). */
  readonly proseOnly: string[];
  readonly unchanged: number;
  readonly versions: { before: string | undefined; after: string | undefined };
}

/** Parameters as an object keyed `in:name`, so that their order is not a change. */
function keyedParameters(list: Json | undefined): Json {
  if (!Array.isArray(list)) return {};
  return Object.fromEntries(list.filter(isObject).map((p) => [`${String(p.in)}:${String(p.name)}`, p]));
}

export function operationsOf(doc: Doc): Map<string, Operation> {
  const result = new Map<string, Operation>();
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = deref(doc, rawItem);
    if (!isObject(item)) continue;
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const own = Array.isArray(op.parameters) ? op.parameters : [];
      const body: Json = { ...op, parameters: keyedParameters([...shared, ...own]) };
      const key = `${method.toUpperCase()} ${path}`;
      result.set(key, { key, operationId: typeof op.operationId === "string" ? op.operationId : undefined, body });
    }
  }
  return result;
}

const short = (value: Json | undefined): string => {
  if (value === undefined) return "(absent)";
  const text = JSON.stringify(value);
  return text.length > 90 ? `${text.slice(0, 87)}...` : text;
};

/**
 * Contract differences between two JSON values, as `a.b.c: before → after`; prose keys are
 * skipped, except as the names of schema properties (a property may be called `description`).
 */
function leafChanges(before: Json | undefined, after: Json | undefined, path: string, out: string[]): void {
  if (JSON.stringify(before) === JSON.stringify(after)) return;
  if (isObject(before) && isObject(after)) {
    const namesProperties = path === "properties" || path.endsWith(".properties");
    for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
      if (PROSE.has(key) && !namesProperties) continue;
      leafChanges(before[key], after[key], path ? `${path}.${key}` : key, out);
    }
    return;
  }
  out.push(`${path || "(operation)"}: ${short(before)} → ${short(after)}`);
}

const version = (doc: Doc): string | undefined =>
  isObject(doc.info) && typeof doc.info.version === "string" ? doc.info.version : undefined;

export function diffOperations(before: Doc, after: Doc): OperationsDiff {
  const old = operationsOf(before);
  const next = operationsOf(after);
  const byKey = (a: { key: string }, b: { key: string }) => a.key.localeCompare(b.key);
  const changed: OperationsDiff["changed"] = [];
  const proseOnly: string[] = [];
  let unchanged = 0;
  for (const [key, op] of next) {
    const was = old.get(key);
    if (!was) continue;
    const contract: string[] = [];
    leafChanges(was.body, op.body, "", contract);
    if (contract.length) changed.push({ key, operationId: op.operationId, changes: contract });
    else if (JSON.stringify(was.body) !== JSON.stringify(op.body)) proseOnly.push(key);
    else unchanged += 1;
  }
  return {
    added: [...next.values()].filter((op) => !old.has(op.key)).sort(byKey),
    removed: [...old.values()].filter((op) => !next.has(op.key)).sort(byKey),
    changed: changed.sort(byKey),
    proseOnly: proseOnly.sort(),
    unchanged,
    versions: { before: version(before), after: version(after) },
  };
}

export const hasOperationChanges = (diff: OperationsDiff): boolean =>
  diff.added.length + diff.removed.length + diff.changed.length > 0;

/** The readable diff: one line per added/removed operation, the differing leaves under a changed one. */
export function formatDiff(diff: OperationsDiff, maxLeaves = 12): string {
  const width = Math.max(0, ...[...diff.added, ...diff.removed, ...diff.changed].map((op) => op.key.length));
  const row = (sign: string, op: { key: string; operationId: string | undefined }) =>
    `  ${sign} ${op.key.padEnd(width)}  ${op.operationId ?? ""}`.trimEnd();
  const lines = [
    `API version (info.version): ${diff.versions.before ?? "?"} → ${diff.versions.after ?? "?"}${diff.versions.before === diff.versions.after ? " (unchanged)" : ""}`,
    `Operations: ${diff.added.length} added, ${diff.removed.length} removed, ${diff.changed.length} changed, ${diff.proseOnly.length} with prose-only changes, ${diff.unchanged} unchanged`,
  ];
  for (const op of diff.added) lines.push(row("+", op));
  for (const op of diff.removed) lines.push(row("-", op));
  for (const op of diff.changed) {
    lines.push(row("~", op));
    for (const change of op.changes.slice(0, maxLeaves)) lines.push(`      ${change}`);
    if (op.changes.length > maxLeaves) lines.push(`      … and ${op.changes.length - maxLeaves} more`);
  }
  if (diff.proseOnly.length) lines.push(`  prose only: ${diff.proseOnly.join(", ")}`);
  return lines.join("\n");
}

// ---------------------------------------------------------------------------------------------

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
  try {
    parse(incoming);
  } catch (error) {
    console.error(`vendor:update: ${source} is not valid YAML: ${(error as Error).message}`);
    return 1;
  }
  const current = await readFile(vendorFile, "utf8");
  if (incoming === current) {
    console.log(`vendor:update: ${source} is identical to openapi/audience-intelligence.yaml; nothing to do.`);
    return 0;
  }

  const before = JSON.parse(await readFile(mergedFile, "utf8")) as Doc;
  const vendorBefore = parse(current) as Doc;
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
  const after = generated ? (JSON.parse(await readFile(mergedFile, "utf8")) as Doc) : (parse(incoming) as Doc);
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
    seconds: { classified, total: seconds(started) },
  });
  console.log(`\n== vendor:update: operations that changed (${comparedFrom}, before → after)`);
  console.log(formatDiff(diff));
  console.log(`\n${formatText(report)}`);
  if (jsonOut) await writeFile(resolve(cwd, jsonOut), `${JSON.stringify(report, null, 2)}\n`);
  if (markdownOut) await writeFile(resolve(cwd, markdownOut), formatMarkdown(report));

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
