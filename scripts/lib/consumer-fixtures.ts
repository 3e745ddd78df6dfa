/**
 * Consumer fixtures: code written against this package as other repositories write it — the
 * README's examples and the packaging tests' consumer program — pinned as files in
 * test/consumers/fixtures/ and type-checked against the package as it is now (its sources, so a
 * regeneration counts without a build). A failure names the fixture, the line, and the operation
 * the line calls.
 *
 * Pinned: the files are copies, rewritten only by `npm run consumers:pin`, so a regeneration is
 * judged against the code consumers already have, not against examples edited along with it.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { entriesOf } from "./api-report.ts";
import { runNode } from "./run-node.ts";

const FIXTURE_DIR = join("test", "consumers", "fixtures");

export interface FixtureFailure {
  readonly fixture: string;
  readonly line: number;
  readonly column: number;
  /** `GET /events/{eid}` when the failing line (or the call it sits in) names one. */
  readonly operation: string | undefined;
  /** Where the pinned code came from, as its header comment says. */
  readonly source: string | undefined;
  readonly message: string;
}

export interface FixtureResult {
  readonly fixtures: string[];
  readonly failures: FixtureFailure[];
  /** Errors outside the fixtures (the package's own sources). */
  readonly other: string[];
}

const HEADER = "// Pinned consumer fixture — rewritten only by `npm run consumers:pin`.";

/** The fixtures as `consumers:pin` writes them, by file name. */
async function fixturesFromSources(root: string): Promise<Map<string, string>> {
  const pkg = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { name: string };
  const readme = await readFile(join(root, "README.md"), "utf8");
  const blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((m) => ({
    line: readme.slice(0, m.index).split("\n").length + 1,
    code: m[1] as string,
  }));
  const files = new Map<string, string>();
  // The quick start and the sections after it continue one program: `client`, `eid` carry over.
  const program = blocks.filter((b) => !/^import .* from "vitest"/m.test(b.code) && !/\/redis"/.test(b.code));
  const [first, ...rest] = program;
  if (first) {
    files.set(
      "readme-quick-start.ts",
      [
        HEADER,
        "// From README.md's TypeScript examples, one program; the names they leave to the reader are declared here.",
        "declare const username: string;",
        "declare const password: string;",
        "declare const eid: string;",
        `// README.md:${first.line}`,
        first.code,
        ...rest.flatMap((b) => [`// README.md:${b.line}`, "{", b.code, "}"]),
        "",
      ].join("\n"),
    );
  }
  // Each test file of the README is a fixture of its own (readme-testing.ts, readme-testing-2.ts, …).
  const tests = blocks.filter((b) => /^import .* from "vitest"/m.test(b.code));
  for (const [i, b] of tests.entries())
    files.set(`readme-testing${i ? `-${i + 1}` : ""}.ts`, [HEADER, `// README.md:${b.line}`, b.code].join("\n"));
  for (const b of blocks.filter((b) => /\/redis"/.test(b.code)))
    files.set(
      "readme-redis.ts",
      [
        HEADER,
        `import { createAudienceClient } from "${pkg.name}";`,
        "declare const url: string;",
        "declare const baseUrl: string;",
        "declare const credentials: { username: string; password: string };",
        `// README.md:${b.line}`,
        b.code,
      ].join("\n"),
    );
  const app = await readFile(join(root, "test", "packaging", "consumer-app.ts"), "utf8");
  const main = app.match(/const MAIN_TS = `([\s\S]*?)`;\n/)?.[1];
  if (main) {
    const line = app.slice(0, app.indexOf("const MAIN_TS")).split("\n").length + 1;
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the template literal's own placeholder, replaced
    const code = main.replaceAll("${pkg.name}", pkg.name).replaceAll("\\`", "`").replaceAll("\\$", "$");
    files.set("consumer-app.ts", [HEADER, `// test/packaging/consumer-app.ts:${line} (MAIN_TS)`, code].join("\n"));
  }
  return files;
}

export async function pinFixtures(root: string): Promise<string[]> {
  const dir = join(root, FIXTURE_DIR);
  await mkdir(dir, { recursive: true });
  const files = await fixturesFromSources(root);
  for (const [name, text] of files) await writeFile(join(dir, name), text);
  return [...files.keys()];
}

/** Type-checks the pinned fixtures against the package's sources, every `exports` entry by its name. */
export async function checkFixtures(root: string): Promise<FixtureResult> {
  const dir = join(root, FIXTURE_DIR);
  const fixtures = (await readdir(dir)).filter((n) => n.endsWith(".ts")).sort();
  const pkg = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { name: string };
  const paths = Object.fromEntries(
    (await entriesOf(root)).map((e) => [
      e.subpath === "." ? pkg.name : `${pkg.name}/${e.subpath.slice(2)}`,
      [join(root, e.source)],
    ]),
  );
  const cache = join(root, ".api-report-cache");
  await mkdir(cache, { recursive: true });
  const work = await mkdtemp(join(cache, "consumers-"));
  try {
    const tsconfig = join(work, "tsconfig.json");
    await writeFile(
      tsconfig,
      JSON.stringify({
        extends: join(root, "tsconfig.json"),
        compilerOptions: { noEmit: true, paths },
        include: [],
        files: fixtures.map((n) => join(dir, n)),
      }),
    );
    const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
    const run = await runNode([tsc, "-p", tsconfig, "--pretty", "false"], root);
    const texts = new Map(
      await Promise.all(fixtures.map(async (n) => [n, await readFile(join(dir, n), "utf8")] as const)),
    );
    const helpers = await helperOperations(root);
    const failures: FixtureFailure[] = [];
    const other: string[] = [];
    for (const raw of run.output.split("\n")) {
      const m = raw.match(/^(.+?)\((\d+),(\d+)\): error (TS\d+: .*)$/);
      if (!m) continue;
      const file = relative(root, join(root, m[1] as string));
      const name = relative(FIXTURE_DIR, file);
      const text = texts.get(name);
      if (name.startsWith("..") || text === undefined) {
        other.push(raw);
        continue;
      }
      const line = Number(m[2]);
      failures.push({
        fixture: file,
        line,
        column: Number(m[3]),
        operation: operationAt(text, line, helpers),
        source: sourceAt(text, line),
        message: m[4] as string,
      });
    }
    if (run.status !== 0 && failures.length === 0 && other.length === 0) other.push(run.output.trim());
    return { fixtures: fixtures.map((n) => join(FIXTURE_DIR, n)), failures, other };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

const CALL = /\.(GET|PUT|POST|DELETE|PATCH|HEAD|OPTIONS)\(\s*"([^"]+)"/;

/**
 * The first operation each exported helper of src/workflows/ calls (`listEvents` → `GET /events/`),
 * so that a fixture line that calls a helper, not the client, still names its operation.
 */
export async function helperOperations(root: string): Promise<Map<string, string>> {
  const dir = join(root, "src", "workflows");
  const map = new Map<string, string>();
  for (const file of (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith(".ts"))) {
    const text = await readFile(join(dir, file), "utf8");
    const starts = [...text.matchAll(/^export (?:async )?function\*? ?([\w$]+)/gm)];
    starts.forEach((m, i) => {
      const body = text.slice(m.index, starts[i + 1]?.index ?? text.length);
      const call = body.match(CALL);
      if (call) map.set(m[1] as string, `${call[1]} ${call[2]}`);
    });
  }
  return map;
}

/** The statement a line belongs to: it and the lines before it, back to the previous statement's end. */
function statementAt(lines: string[], index: number): string {
  let start = index;
  while (start > 0 && index - start < 10 && !/[;{}]\s*(\/\/.*)?$/.test(lines[start - 1] ?? "")) start -= 1;
  return lines.slice(start, index + 1).join("\n");
}

function operationIn(statement: string, helpers: Map<string, string>): string | undefined {
  const call = statement.match(CALL);
  if (call) return `${call[1]} ${call[2]}`;
  for (const [name, operation] of helpers) if (new RegExp(`\\b${name}\\(`).test(statement)) return operation;
  return undefined;
}

/**
 * The operation behind a failing line: the one its statement calls, directly or through a helper;
 * else the one that produced a value the line uses (`const event = … client.GET("/events/{eid}" …`).
 */
export function operationAt(text: string, line: number, helpers: Map<string, string>): string | undefined {
  const lines = text.split("\n");
  const here = operationIn(statementAt(lines, line - 1), helpers);
  if (here) return here;
  for (const name of new Set(lines[line - 1]?.match(/[A-Za-z_$][\w$]*/g) ?? [])) {
    const declared = new RegExp(`\\b(?:const|let|var)\\s+(?:\\{[^}]*\\b)?${name}\\b`);
    for (let i = line - 2; i >= 0; i -= 1) {
      if (!declared.test(lines[i] ?? "")) continue;
      // The declaration's statement, read forward to its end: the call may sit on a later line.
      let end = i;
      while (end < lines.length - 1 && end - i < 10 && !/;\s*(\/\/.*)?$/.test(lines[end] ?? "")) end += 1;
      const operation = operationIn(lines.slice(i, end + 1).join("\n"), helpers);
      if (operation) return operation;
      break;
    }
  }
  return undefined;
}

/** `README.md:57` for a line in the block pinned from README.md line 57 (its marker comment and the offset). */
function sourceAt(text: string, line: number): string | undefined {
  const lines = text.split("\n");
  for (let i = line - 1; i >= 0; i -= 1) {
    const m = lines[i]?.match(/^\/\/ ([\w./-]+):(\d+)/);
    if (m) return `${m[1]}:${Number(m[2]) + (line - i - 2) + (lines[i + 1] === "{" ? -1 : 0)}`;
  }
  return undefined;
}

export function formatFailures(result: FixtureResult): string[] {
  return [
    ...result.failures.map(
      (f) =>
        `${f.fixture}:${f.line}:${f.column}${f.operation ? ` (${f.operation})` : ""}${f.source ? ` [pinned from ${f.source}]` : ""}: ${f.message}`,
    ),
    ...result.other,
  ];
}
