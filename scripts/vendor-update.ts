/**
 * `npm run vendor:update -- <new-vendor-file.yaml> [--accept]` — what a consumer's CI runs when the
 * vendor publishes a new API description (docs/REGENERATING.md):
 *
 * 1. replace openapi/audience-intelligence.yaml with the new file;
 * 2. regenerate generated/ (`npm run generate`: redocly lint, overlays, types, validators);
 * 3. type-check the repository against the new types (`npm run typecheck`);
 * 4. run the contract suite against a Prism mock of the new description (`vitest run test/contract`);
 * 5. print the operations that changed — (method, path) added, removed or changed — from
 *    generated/openapi.json before and after.
 *
 * Exit status: 0 when every step passed and no operation changed (or `--accept` was given);
 * 1 when a step failed; 2 when every step passed but operations changed, so that a scheduled job
 * stops for a person to read the diff. The working tree keeps the new files either way
 * (`git diff`, or `git checkout -- openapi generated` to undo).
 */
import { spawnSync } from "node:child_process";
import { copyFile, readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parse } from "yaml";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Doc = { [key: string]: Json };

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

const isObject = (value: Json | undefined): value is { [key: string]: Json } =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function pointer(doc: Doc, ref: string): Json | undefined {
  if (!ref.startsWith("#/")) return undefined;
  let node: Json | undefined = doc;
  for (const raw of ref.slice(2).split("/")) {
    const part = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    node = isObject(node) ? node[part] : Array.isArray(node) ? node[Number(part)] : undefined;
  }
  return node;
}

/** Resolves local `$ref`s; a cycle is left as `{ $ref }` at the point it closes. */
function deref(doc: Doc, node: Json, stack: readonly string[] = []): Json {
  if (Array.isArray(node)) return node.map((n) => deref(doc, n, stack));
  if (!isObject(node)) return node;
  const ref = node.$ref;
  if (typeof ref === "string") {
    const target = pointer(doc, ref);
    if (target === undefined || stack.includes(ref)) return { $ref: ref };
    return deref(doc, target, [...stack, ref]);
  }
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, deref(doc, v, stack)]));
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

type Step = { name: string; status: "passed" | "failed" | "skipped" };

function step(name: string, file: string, args: string[]): Step {
  console.log(`\n== vendor:update: ${name}`);
  const result = spawnSync(file, args, { cwd: root, stdio: "inherit", env: process.env });
  return { name, status: result.status === 0 ? "passed" : "failed" };
}

async function main(argv: string[]): Promise<number> {
  const accept = argv.includes("--accept");
  const files = argv.filter((a) => !a.startsWith("--"));
  if (files.length !== 1) {
    console.error("usage: npm run vendor:update -- <path-to-new-vendor-description.yaml> [--accept]");
    return 1;
  }
  const source = resolve(process.env.INIT_CWD ?? process.cwd(), files[0] as string);
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
  await copyFile(source, vendorFile);
  console.log(`vendor:update: openapi/audience-intelligence.yaml replaced by ${source}`);

  const tsx = join(root, "node_modules", "tsx", "dist", "cli.mjs");
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  const vitest = join(root, "node_modules", "vitest", "vitest.mjs");
  const steps: Step[] = [step("generate", process.execPath, [tsx, "scripts/generate.ts"])];
  const generated = steps[0]?.status === "passed";
  if (generated) {
    steps.push(step("typecheck", process.execPath, [tsc, "--noEmit"]));
    steps.push(step("contract suite (test/contract)", process.execPath, [vitest, "run", "test/contract"]));
  } else {
    steps.push({ name: "typecheck", status: "skipped" }, { name: "contract suite (test/contract)", status: "skipped" });
  }

  // The merged description when generation succeeded; else (an overlay no longer applies, lint
  // errors) the vendor files themselves, which still shows what the vendor changed.
  const diff = generated
    ? diffOperations(before, JSON.parse(await readFile(mergedFile, "utf8")) as Doc)
    : diffOperations(vendorBefore, parse(incoming) as Doc);

  console.log(
    `\n== vendor:update: operations that changed (${generated ? "generated/openapi.json" : "vendor file, overlays not applied"}, before → after)`,
  );
  console.log(formatDiff(diff));
  console.log("\n== vendor:update: summary");
  for (const s of steps)
    console.log(`  ${s.status === "passed" ? "ok  " : s.status === "failed" ? "FAIL" : "skip"}  ${s.name}`);

  if (steps.some((s) => s.status !== "passed")) {
    console.log("\nvendor:update FAILED: see the failing step above and the operations that changed.");
    return 1;
  }
  if (hasOperationChanges(diff) && !accept) {
    console.log("\nvendor:update: every check passed, but operations changed. Review the diff above, then commit");
    console.log("openapi/ and generated/ (or re-run with --accept to exit 0).");
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
