/**
 * `npm run vendor:pr -- --source <URL or file> [--dry-run] [--base main] [--branch vendor/description]
 * [--reviewers a,b]` — what .github/workflows/vendor-update.yml runs: fetches the vendor's current
 * description, runs `vendor:update` on it, and opens or updates one pull request whose body is the
 * report, labelled `semver:<bump>`. Only an additive change (`minor`) that passed every check and
 * touched none of the vendor's prose or metadata is set to merge itself once CI passes; anything
 * else (breaking, prose only, new or changed vendor text, a failing check) asks the reviewers for a
 * review and turns auto-merge off. A vendor file that vendor:update refused (scripts/lib/
 * vendor-input.ts) ends here with exit 1: nothing is committed, pushed or opened.
 *
 * `--dry-run` runs vendor:update (the working tree keeps the regenerated files, as it always does)
 * but runs no git or gh command: it prints them.
 */
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { versionText } from "./lib/markdown-text.ts";
import type { Report } from "./lib/vendor-report.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const BUMPS = ["major", "minor", "patch", "none"] as const;
/** What vendor:update regenerates, and the CHANGELOG entry drafted here: the files the pull request carries. */
const REGENERATED = ["openapi", "generated", "api-report", "CHANGELOG.md"];

/**
 * The report's CHANGELOG draft under **Unreleased** (Keep a Changelog 1.1.0), so that the pull
 * request carries the entry test/packaging/release.test.ts asks for once API_VERSION has moved.
 */
export function withChangelogEntry(changelog: string, draft: string): string {
  const heading = changelog.match(/^## \[Unreleased\][^\n]*\n/m);
  if (!heading || heading.index === undefined)
    return `${changelog.trimEnd()}\n\n## [Unreleased]\n\n### Changed\n\n${draft}\n`;
  const at = heading.index + heading[0].length;
  return `${changelog.slice(0, at)}\n### Changed\n\n${draft}\n${changelog.slice(at)}`;
}

export interface PrOptions {
  readonly base: string;
  readonly branch: string;
  readonly reviewers: readonly string[];
  /** The body file (vendor:update's `--markdown`). */
  readonly bodyFile: string;
  /** The open pull request from an earlier run, if any (`gh pr list` finds it). */
  readonly existing: number | undefined;
}

/** The git and gh commands that carry a report into its pull request, in order. */
export function planPullRequest(
  report: Pick<Report, "bump" | "apiVersion" | "failingSteps" | "proseOrMetadata">,
  o: PrOptions,
): string[][] {
  const label = `semver:${report.bump}`;
  // The title and the commit message are plain text people and tools read: versions only as plain tokens.
  const title = `Vendor API description ${versionText(report.apiVersion.before)} → ${versionText(report.apiVersion.after)} (${report.bump})`;
  // A report without the prose check (an older vendor:update) counts as prose changed.
  const automatic = report.bump === "minor" && report.failingSteps.length === 0 && report.proseOrMetadata?.length === 0;
  const commands: string[][] = [
    ["git", "checkout", "-B", o.branch],
    ["git", "add", "--all", "--", ...REGENERATED],
    ["git", "commit", "--allow-empty", "-m", `${title}\n\nWritten by npm run vendor:pr (docs/REGENERATING.md).`],
    ["git", "push", "--force", "origin", o.branch],
    ...BUMPS.map((b) => [
      "gh",
      "label",
      "create",
      `semver:${b}`,
      "--force",
      "--description",
      `vendor:update says: ${b}`,
    ]),
  ];
  if (o.existing === undefined) {
    commands.push([
      "gh",
      "pr",
      "create",
      "--base",
      o.base,
      "--head",
      o.branch,
      "--title",
      title,
      "--body-file",
      o.bodyFile,
      "--label",
      label,
    ]);
  } else {
    const stale = BUMPS.filter((b) => b !== report.bump).flatMap((b) => ["--remove-label", `semver:${b}`]);
    commands.push([
      "gh",
      "pr",
      "edit",
      String(o.existing),
      "--title",
      title,
      "--body-file",
      o.bodyFile,
      "--add-label",
      label,
      ...stale,
    ]);
  }
  const pr = o.existing === undefined ? o.branch : String(o.existing);
  if (!automatic) {
    // A person decides: no auto-merge (an earlier, compatible run may have set it).
    commands.push(["gh", "pr", "merge", pr, "--disable-auto"]);
    if (o.reviewers.length) commands.push(["gh", "pr", "edit", pr, "--add-reviewer", o.reviewers.join(",")]);
  } else {
    commands.push(["gh", "pr", "merge", pr, "--auto", "--squash"]);
  }
  return commands;
}

/** A command as a shell would read it, for the dry-run's log. */
export const shellLine = (command: readonly string[]) =>
  command.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", "'\\''")}'`)).join(" ");

async function fetchSource(source: string, into: string): Promise<void> {
  if (/^https?:\/\//.test(source)) {
    const response = await fetch(source);
    if (!response.ok) throw new Error(`vendor:pr: GET ${source} answered ${response.status}`);
    await writeFile(into, await response.text());
  } else {
    await writeFile(into, await readFile(resolve(process.env.INIT_CWD ?? process.cwd(), source), "utf8"));
  }
}

function option(argv: string[], name: string, fallback?: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : fallback;
}

function existingPullRequest(branch: string): number | undefined {
  const list = spawnSync(
    "gh",
    ["pr", "list", "--head", branch, "--state", "open", "--json", "number", "--jq", ".[0].number"],
    {
      cwd: root,
      encoding: "utf8",
    },
  );
  if (list.status !== 0) throw new Error(`vendor:pr: gh pr list failed: ${list.stderr}`);
  const number = Number.parseInt(list.stdout.trim(), 10);
  return Number.isNaN(number) ? undefined : number;
}

async function main(argv: string[]): Promise<number> {
  const source = option(argv, "--source", process.env.VENDOR_DESCRIPTION_URL);
  if (!source) {
    console.error(
      "usage: npm run vendor:pr -- --source <URL or file> [--dry-run] [--base main] [--branch B] [--reviewers a,b]",
    );
    return 1;
  }
  const dryRun = argv.includes("--dry-run");
  const work = await mkdtemp(join(tmpdir(), "vendor-pr-"));
  const incoming = join(work, "vendor-description.yaml");
  const jsonFile = join(work, "report.json");
  const bodyFile = join(work, "body.md");
  await fetchSource(source, incoming);
  console.log(`vendor:pr: fetched ${source}`);

  const tsx = join(root, "node_modules", "tsx", "dist", "cli.mjs");
  // vendor:update prints vendor strings; in GitHub Actions a line of output can be a workflow
  // command, so the runner is told to read none until this run's own random token ends the pause.
  const pause = process.env.GITHUB_ACTIONS === "true" ? randomUUID() : undefined;
  if (pause) console.log(`::stop-commands::${pause}`);
  const update = spawnSync(
    process.execPath,
    [tsx, "scripts/vendor-update.ts", incoming, "--json", jsonFile, "--markdown", bodyFile],
    { cwd: root, stdio: "inherit", env: { ...process.env, INIT_CWD: root } },
  );
  if (pause) console.log(`::${pause}::`);
  const report = await readFile(jsonFile, "utf8").then(
    (t) => JSON.parse(t) as Report,
    () => undefined,
  );
  if (!report) {
    // Exit 0 without a report: the file is the committed description. Anything else is an error.
    console.log(
      update.status === 0
        ? "vendor:pr: the description has not changed; no pull request."
        : "vendor:pr: vendor:update wrote no report",
    );
    return update.status === 0 ? 0 : 1;
  }
  if (report.refused?.length) {
    console.log("\nvendor:pr: vendor:update refused the vendor file (see above); no commit, no pull request.");
    return 1;
  }
  console.log(`\nvendor:pr: vendor:update exited ${update.status}; bump ${report.bump}`);
  if (report.bump === "none" && report.failingSteps.length === 0) {
    console.log("vendor:pr: nothing a caller could notice changed; no pull request.");
    return 0;
  }

  const changelog = join(root, "CHANGELOG.md");
  await writeFile(changelog, withChangelogEntry(await readFile(changelog, "utf8"), report.changelog));
  console.log("vendor:pr: CHANGELOG.md: the report's draft added under Unreleased");

  const options = {
    base: option(argv, "--base", "main") as string,
    branch: option(argv, "--branch", "vendor/description") as string,
    reviewers: (option(argv, "--reviewers", process.env.VENDOR_PR_REVIEWERS) ?? "").split(",").filter(Boolean),
    bodyFile,
  };
  if (dryRun) {
    console.log(
      `vendor:pr: dry run; would run:\n${shellLine(["gh", "pr", "list", "--head", options.branch, "--state", "open", "--json", "number", "--jq", ".[0].number"])}`,
    );
    for (const command of planPullRequest(report, { ...options, existing: undefined })) console.log(shellLine(command));
    console.log(`vendor:pr: pull request body: ${bodyFile}`);
    return 0;
  }
  for (const command of planPullRequest(report, { ...options, existing: existingPullRequest(options.branch) })) {
    console.log(`+ ${shellLine(command)}`);
    const ran = spawnSync(command[0] as string, command.slice(1), { cwd: root, stdio: "inherit" });
    // Turning off an auto-merge that was never on is not a failure.
    if (ran.status !== 0 && !command.includes("--disable-auto")) return 1;
  }
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
