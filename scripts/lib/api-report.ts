/**
 * The public API report: one API Extractor `.api.md` per entry point of package.json `exports`
 * (the declarations a consumer compiles against), committed in api-report/. The entries are read
 * from the exports map each time, so a new subpath gets its report without editing this file.
 *
 * Declarations are emitted with tsc into .api-report-cache/ (inside the project, so that the
 * emitted .d.ts files resolve `openapi-fetch` and the other packages they import; not under
 * node_modules/, which API Extractor takes for external packages and does not expand), then API
 * Extractor reads each entry's .d.ts.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Extractor, ExtractorConfig, ExtractorLogLevel } from "@microsoft/api-extractor";
import { runNode } from "./run-node.ts";

export const REPORT_DIR = "api-report";

export interface Entry {
  /** The subpath as consumers import it: ".", "./node". */
  readonly subpath: string;
  /** The report's file name: `index.api.md` for ".", `node.api.md` for "./node". */
  readonly file: string;
  /** The source file whose declarations are the entry's types. */
  readonly source: string;
  /** The emitted declaration file, relative to the emit folder. */
  readonly declaration: string;
}

type Exports = Record<string, string | { types?: string; import?: { types?: string }; default?: string }>;

/** Every entry of `exports` that has types: "./dist/src/x/index.d.ts" is emitted from "src/x/index.ts". */
export async function entriesOf(root: string): Promise<Entry[]> {
  const pkg = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { exports?: Exports };
  const entries: Entry[] = [];
  for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
    const types = typeof target === "string" ? target : (target.types ?? target.import?.types);
    if (!types?.endsWith(".d.ts")) continue;
    const declaration = types.replace(/^\.\/dist\//, "");
    const name = subpath === "." ? "index" : subpath.replace(/^\.\//, "").replaceAll("/", "-");
    entries.push({ subpath, file: `${name}.api.md`, source: declaration.replace(/\.d\.ts$/, ".ts"), declaration });
  }
  return entries;
}

/** The reports as they would be written now, by file name. */
export async function buildApiReports(root: string): Promise<Map<string, string>> {
  const entries = await entriesOf(root);
  const cache = join(root, ".api-report-cache");
  await mkdir(cache, { recursive: true });
  const work = await mkdtemp(join(cache, "api-report-"));
  try {
    const emit = join(work, "d");
    const tsconfig = join(work, "tsconfig.json");
    await writeFile(
      tsconfig,
      JSON.stringify({
        extends: join(root, "tsconfig.json"),
        compilerOptions: {
          noEmit: false,
          declaration: true,
          emitDeclarationOnly: true,
          rootDir: root,
          outDir: emit,
          stripInternal: false,
        },
        include: [],
        files: entries.map((e) => join(root, e.source)),
      }),
    );
    const tsc = await runNode([join(root, "node_modules", "typescript", "bin", "tsc"), "-p", tsconfig], root);
    if (tsc.status !== 0) throw new Error(`api-report: declarations failed to emit\n${tsc.output}`);
    await jsSpecifiers(emit);

    const reports = new Map<string, string>();
    for (const entry of entries) {
      const out = join(work, "reports", entry.file.replace(/\.api\.md$/, ""));
      const config = ExtractorConfig.prepare({
        configObject: {
          // Not the project root: its tsdoc.json (for TypeDoc) redefines tags API Extractor already knows.
          projectFolder: work,
          mainEntryPointFilePath: join(emit, entry.declaration),
          compiler: {
            overrideTsconfig: {
              compilerOptions: {
                target: "ES2022",
                module: "NodeNext",
                moduleResolution: "NodeNext",
                lib: ["ES2023", "DOM", "DOM.Iterable"],
                types: ["node"],
                strict: true,
                skipLibCheck: true,
              },
              files: [join(emit, entry.declaration)],
            },
          },
          apiReport: {
            enabled: true,
            reportFileName: entry.file.replace(/\.api\.md$/, ""),
            reportFolder: out,
            reportTempFolder: join(out, "temp"),
          },
          newlineKind: "lf",
          docModel: { enabled: false },
          dtsRollup: { enabled: false },
          tsdocMetadata: { enabled: false },
          messages: {
            // The report is the product here; TSDoc style and release tags are TypeDoc's concern.
            extractorMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
            tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
            compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning } },
          },
        },
        configObjectFullPath: undefined,
        packageJsonFullPath: join(root, "package.json"),
      });
      const problems: string[] = [];
      Extractor.invoke(config, {
        localBuild: true,
        messageCallback: (message) => {
          // "console-*" messages narrate the run (a report created or changed); the comparison is ours.
          const narration = String(message.messageId).startsWith("console-");
          if (
            !narration &&
            (message.logLevel === ExtractorLogLevel.Error || message.logLevel === ExtractorLogLevel.Warning)
          )
            problems.push(message.formatMessageWithLocation(root));
          message.handled = true;
        },
      });
      if (problems.length) throw new Error(`api-report: API Extractor on ${entry.subpath}:\n${problems.join("\n")}`);
      const written = (await readdir(out)).find((n) => n.endsWith(".api.md"));
      if (!written) throw new Error(`api-report: API Extractor wrote no report for ${entry.subpath}`);
      reports.set(entry.file, await readFile(join(out, written), "utf8"));
    }
    return reports;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * tsc keeps the `.ts` of relative imports in declarations (rewriteRelativeImportExtensions rewrites
 * only JavaScript); API Extractor's own TypeScript resolves none of them and would list every
 * re-export as an import. The copies in the cache get `.js`, which resolves to the `.d.ts` beside.
 */
async function jsSpecifiers(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".d.ts")) continue;
    const file = join(entry.parentPath, entry.name);
    const text = await readFile(file, "utf8");
    await writeFile(
      file,
      text
        .replace(/(from\s+["']\.{1,2}\/[^"']*?)\.ts(["'])/g, "$1.js$2")
        .replace(/(import\(["']\.{1,2}\/[^"']*?)\.ts(["']\))/g, "$1.js$2"),
    );
  }
}

/** The committed reports, by file name. */
export async function committedApiReports(root: string): Promise<Map<string, string>> {
  const dir = join(root, REPORT_DIR);
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith(".api.md")).sort();
  return new Map(await Promise.all(names.map(async (n) => [n, await readFile(join(dir, n), "utf8")] as const)));
}

export async function writeApiReports(root: string, reports: Map<string, string>): Promise<void> {
  const dir = join(root, REPORT_DIR);
  await mkdir(dir, { recursive: true });
  for (const name of (await readdir(dir)).filter((n) => n.endsWith(".api.md") && !reports.has(n)))
    await rm(join(dir, name));
  for (const [name, text] of reports) await writeFile(join(dir, name), text);
}

/** One top-level declaration of a report, by name (API Extractor separates them with a blank line). */
function declarations(report: string): Map<string, string> {
  const code = report.match(/```ts\n([\s\S]*?)```/)?.[1] ?? "";
  const result = new Map<string, string>();
  for (const block of code.split(/\n\n+/)) {
    const name = block.match(
      /^(?:export )?(?:declare )?(?:abstract )?(?:class|interface|type|function|const|let|var|enum|namespace) ([\w$]+)/m,
    )?.[1];
    if (!name || /^import /m.test(block.split("\n")[0] ?? "")) continue;
    // Overloads and a value and type sharing a name are one entry.
    result.set(name, result.has(name) ? `${result.get(name)}\n\n${block}` : block);
  }
  return result;
}

interface EntryDiff {
  readonly file: string;
  readonly status: "unchanged" | "changed" | "added" | "removed";
  readonly added: string[];
  readonly removed: string[];
  readonly changed: string[];
  /** Unified diff of the report file (empty when unchanged). */
  readonly diff: string;
}

export interface PublicApiDiff {
  readonly entries: EntryDiff[];
  /** Hand-written declarations removed or changed (the generated ones are judged from the description). */
  readonly removedOrChanged: number;
  readonly added: number;
}

/**
 * Compares two sets of reports. `generated` names the declarations written by `npm run generate`
 * (`paths`, `components`, `API_VERSION`, …): their movement is what the description classifier
 * already judged change by change, so it is shown but does not count again towards the bump.
 */
export function diffApiReports(
  before: Map<string, string>,
  after: Map<string, string>,
  generated: ReadonlySet<string> = new Set(),
): PublicApiDiff {
  const entries: EntryDiff[] = [];
  let removedOrChanged = 0;
  let added = 0;
  for (const file of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const b = before.get(file);
    const a = after.get(file);
    const db = declarations(b ?? "");
    const da = declarations(a ?? "");
    const names = {
      added: [...da.keys()].filter((n) => !db.has(n)),
      removed: [...db.keys()].filter((n) => !da.has(n)),
      changed: [...da.keys()].filter((n) => db.has(n) && db.get(n) !== da.get(n)),
    };
    const own = (list: string[]) => list.filter((n) => !generated.has(n)).length;
    removedOrChanged += own(names.removed) + own(names.changed);
    added += own(names.added);
    const status = b === undefined ? "added" : a === undefined ? "removed" : a === b ? "unchanged" : "changed";
    entries.push({ file, status, ...names, diff: status === "unchanged" ? "" : unifiedDiff(file, b ?? "", a ?? "") });
  }
  return { entries, removedOrChanged, added };
}

/** `git diff --no-index`'s unified diff of two texts (git is on every machine that has this checkout). */
function unifiedDiff(name: string, before: string, after: string): string {
  const dir = mkdtempSync(join(tmpdir(), "api-report-diff-"));
  try {
    writeFileSync(join(dir, "committed"), before);
    writeFileSync(join(dir, "now"), after);
    const result = spawnSync("git", ["diff", "--no-index", "--no-color", "--no-ext-diff", "-U2", "committed", "now"], {
      cwd: dir,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    const hunks = result.stdout.split("\n").slice(4).join("\n");
    return `--- ${REPORT_DIR}/${name} (committed)\n+++ ${REPORT_DIR}/${name} (now)\n${hunks}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The names `npm run generate` writes (exported from generated/*.ts). */
export async function generatedNames(root: string): Promise<Set<string>> {
  const dir = join(root, "generated");
  const names = new Set<string>();
  for (const file of (await readdir(dir)).filter((n) => n.endsWith(".ts"))) {
    const text = await readFile(join(dir, file), "utf8");
    for (const m of text.matchAll(/^export (?:declare )?(?:interface|type|const|function|let) ([\w$]+)/gm))
      names.add(m[1] as string);
  }
  return names;
}
