/**
 * scripts/vendor-pr.ts, what the scheduled workflow runs: the commands it plans for each bump
 * (always), and one real dry run (PACKAGING_TESTS=1, `npm run test:vendor-pr`) in a scratch copy
 * of the repository, fetching the vendor file from a server on 127.0.0.1 — nothing from the network.
 */
import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { planPullRequest, shellLine, withChangelogEntry } from "../../scripts/vendor-pr.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const enabled = process.env.PACKAGING_TESTS === "1";
const SLOW = 420_000;
const SKIP = new Set(["node_modules", ".git", "dist", "coverage", ".api-report-cache", join("docs", "api")]);

const options = { base: "main", branch: "vendor/description", reviewers: ["alice", "bob"], bodyFile: "/tmp/body.md" };
const report = (bump: "major" | "minor" | "patch", failingSteps: string[] = []) => ({
  bump,
  apiVersion: { before: "3.0.0", after: "3.1.0" },
  failingSteps,
});
const lines = (commands: string[][]) => commands.map(shellLine);

describe("planPullRequest", () => {
  it("a compatible change: one pull request, labelled with the bump, set to merge itself", () => {
    const plan = lines(planPullRequest(report("minor"), { ...options, existing: undefined }));
    expect(plan).toContain("git add --all -- openapi generated api-report CHANGELOG.md");
    expect(plan).toContain(
      "gh pr create --base main --head vendor/description --title 'Vendor API description 3.0.0 → 3.1.0 (minor)' --body-file /tmp/body.md --label semver:minor",
    );
    expect(plan.at(-1)).toBe("gh pr merge vendor/description --auto --squash");
    expect(plan.join("\n")).not.toMatch(/--add-reviewer|--disable-auto/);
  });

  it("a breaking change: review requested, auto-merge off", () => {
    const plan = lines(planPullRequest(report("major"), { ...options, existing: undefined }));
    expect(plan).toContain("gh pr merge vendor/description --disable-auto");
    expect(plan.at(-1)).toBe("gh pr edit vendor/description --add-reviewer alice,bob");
    expect(plan.join("\n")).not.toContain("--auto --squash");
  });

  it("a failing check waits for a person too, whatever the bump", () => {
    const plan = lines(planPullRequest(report("patch", ["typecheck"]), { ...options, existing: undefined }));
    expect(plan.join("\n")).not.toContain("--auto --squash");
    expect(plan).toContain("gh pr merge vendor/description --disable-auto");
  });

  it("an open pull request from an earlier run is updated, its stale bump labels removed", () => {
    const plan = lines(planPullRequest(report("major"), { ...options, existing: 42 }));
    expect(plan.join("\n")).not.toContain("gh pr create");
    expect(plan).toContain(
      "gh pr edit 42 --title 'Vendor API description 3.0.0 → 3.1.0 (major)' --body-file /tmp/body.md --add-label semver:major --remove-label semver:minor --remove-label semver:patch --remove-label semver:none",
    );
    expect(plan.at(-1)).toBe("gh pr edit 42 --add-reviewer alice,bob");
  });
});

describe("withChangelogEntry", () => {
  it("puts the draft first under Unreleased, keeping what is there", () => {
    const before = "# Changelog\n\n## [Unreleased]\n\n### Added\n\n- x\n\n## [0.1.0] - 2026-01-01\n";
    expect(withChangelogEntry(before, "- Regenerated from API description **3.1.0** (minor).")).toBe(
      "# Changelog\n\n## [Unreleased]\n\n### Changed\n\n- Regenerated from API description **3.1.0** (minor).\n\n### Added\n\n- x\n\n## [0.1.0] - 2026-01-01\n",
    );
  });
});

let scratch = "";
let server: Server | undefined;
let url = "";

beforeAll(async () => {
  if (!enabled) return;
  scratch = await mkdtemp(join(tmpdir(), "ai-vendor-pr-"));
  await cp(root, scratch, { recursive: true, filter: (source) => !SKIP.has(relative(root, source)) });
  await symlink(join(root, "node_modules"), join(scratch, "node_modules"), "dir");
  // The vendor's next file: a new optional query parameter (minor) and a reworded summary.
  const doc = parse(await readFile(join(root, "openapi", "audience-intelligence.yaml"), "utf8"));
  doc.info.version = "3.1.0";
  doc.paths["/events/"].get.parameters.push({ name: "sort", in: "query", schema: { type: "string" } });
  doc.paths["/features/"].get.summary = "Feature flags of the partner (reworded)";
  const body = stringify(doc);
  server = createServer((_, res) => res.writeHead(200, { "content-type": "application/yaml" }).end(body));
  await new Promise<void>((done) => server?.listen(0, "127.0.0.1", done));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/vendor.yaml`;
}, SLOW);

afterAll(async () => {
  await new Promise((done) => (server ? server.close(done) : done(undefined)));
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe.skipIf(!enabled)("npm run vendor:pr -- --dry-run (npm run test:vendor-pr)", () => {
  it(
    "fetches from 127.0.0.1, runs vendor:update, and prints the gh commands for a minor pull request",
    async () => {
      const tsx = join(root, "node_modules", "tsx", "dist", "cli.mjs");
      const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|INIT_CWD$|VITEST)/i.test(k)));
      const { code, out } = await new Promise<{ code: number; out: string }>((done) => {
        execFile(
          process.execPath,
          [tsx, "scripts/vendor-pr.ts", "--source", url, "--dry-run", "--reviewers", "alice"],
          {
            cwd: scratch,
            env: { ...env, FORCE_COLOR: "0", NO_COLOR: "1" },
            timeout: SLOW,
            maxBuffer: 64 * 1024 * 1024,
          },
          (error, stdout, stderr) =>
            done({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, out: `${stdout}${stderr}` }),
        );
      });
      expect(out).toContain(`vendor:pr: fetched ${url}`);
      // vendor:update's report, summary first.
      expect(out).toMatch(
        /== vendor:update: report\nbump: minor {3}breaking 0, additive 1, prose 1\nfailing steps: none\n/,
      );
      expect(out).toMatch(/optional-parameter-added {2}#\/paths\/~1events~1\/get\/parameters\/4/);
      expect(out).toMatch(/index\.api\.md: changed {2}~ API_VERSION, operations/);
      expect(out).toContain("vendor:pr: vendor:update exited 2; bump minor");
      expect(out).toContain("--label semver:minor");
      expect(await readFile(join(scratch, "CHANGELOG.md"), "utf8")).toMatch(
        /## \[Unreleased\]\n\n### Changed\n\n- Regenerated from API description \*\*3\.1\.0\*\* \(minor\)\./,
      );
      expect(out).toContain("gh pr merge vendor/description --auto --squash");
      expect(out).not.toContain("--add-reviewer");
      const bodyFile = out.match(/pull request body: (\S+)/)?.[1] as string;
      const body = await readFile(bodyFile, "utf8");
      expect(body).toMatch(/^## Vendor description 3\.0\.0 → 3\.1\.0: `minor`/);
      expect(body).toContain("- Regenerated from API description **3.1.0** (minor).");
      const json = JSON.parse(await readFile(join(dirname(bodyFile), "report.json"), "utf8"));
      expect(json.bump).toBe("minor");
      expect(json.changes).toContainEqual(
        expect.objectContaining({
          operation: "GET /events/",
          pointer: "#/paths/~1events~1/get/parameters/4",
          kind: "optional-parameter-added",
          severity: "additive",
        }),
      );
      expect(json.steps.map((s: { status: string }) => s.status)).toEqual([
        "passed",
        "passed",
        "passed",
        "passed",
        "passed",
      ]);
      expect(json.publicApi.entries.map((e: { file: string }) => e.file)).toContain("index.api.md");
      expect(code).toBe(0);
    },
    SLOW,
  );
});
