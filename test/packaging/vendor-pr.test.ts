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
import { marked } from "marked";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { buildReport, formatMarkdown } from "../../scripts/lib/vendor-report.ts";
import { planPullRequest, shellLine, withChangelogEntry } from "../../scripts/vendor-pr.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const enabled = process.env.PACKAGING_TESTS === "1";
const SLOW = 420_000;
const SKIP = new Set(["node_modules", ".git", "dist", "coverage", ".api-report-cache", join("docs", "api")]);

const options = { base: "main", branch: "vendor/description", reviewers: ["alice", "bob"], bodyFile: "/tmp/body.md" };
const report = (bump: "major" | "minor" | "patch", failingSteps: string[] = [], proseOrMetadata: string[] = []) => ({
  bump,
  apiVersion: { before: "3.0.0", after: "3.1.0" },
  failingSteps,
  proseOrMetadata,
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

describe("planPullRequest: what merges itself", () => {
  it("a change to the vendor's prose or metadata is never merged automatically, even when additive", () => {
    const plan = lines(planPullRequest(report("minor", [], ["#/info/title"]), { ...options, existing: undefined }));
    expect(plan.join("\n")).not.toContain("--auto --squash");
    expect(plan).toContain("gh pr merge vendor/description --disable-auto");
    expect(plan.at(-1)).toBe("gh pr edit vendor/description --add-reviewer alice,bob");
  });

  it("a prose-only change (patch) waits for a person", () => {
    const plan = lines(planPullRequest(report("patch", [], []), { ...options, existing: undefined }));
    expect(plan.join("\n")).not.toContain("--auto --squash");
    expect(plan).toContain("gh pr merge vendor/description --disable-auto");
  });

  it("a report that does not say whether prose changed waits for a person", () => {
    const { proseOrMetadata: _, ...unknown } = report("minor");
    const plan = lines(planPullRequest(unknown as never, { ...options, existing: undefined }));
    expect(plan.join("\n")).not.toContain("--auto --squash");
  });

  it("the title and the commit message carry a version only as a plain token", () => {
    const hostile = {
      ...report("minor"),
      apiVersion: { before: "3.0.0", after: "3.1.0\n<!--\n## [x](https://e.example) @org/team" },
    };
    const plan = planPullRequest(hostile, { ...options, existing: undefined });
    const create = plan.find((command) => command[1] === "pr" && command[2] === "create") as string[];
    const title = create[create.indexOf("--title") + 1] as string;
    const message = plan.find((command) => command[1] === "commit")?.at(-1) as string;
    expect(title).toBe("Vendor API description 3.0.0 → (not a plain version) (minor)");
    expect(message.split("\n\n")[0]).toBe(title);
  });
});

/**
 * Hostile text in every vendor string a report carries: a comment that would hide what follows, a
 * heading, a link, an image, a mention, HTML, a bidi override, a backtick run and table pipes.
 */
const HOSTILE =
  "x\n<!--\n## Approved [click](https://evil.example) ![i](https://evil.example/i.png) @org/team <b>hi</b> www.evil.example ``` | \u202e";

function hostileReport() {
  const op = `GET /events/{eid}${HOSTILE}`;
  const change = {
    operation: op,
    operationId: `getEvent${HOSTILE}`,
    pointer: `#/paths/~1events~1{eid}${HOSTILE}/get/tags`,
    kind: "tags-changed",
    severity: "prose" as const,
    detail: `tags: ["events"] → ["${HOSTILE}"]`,
  };
  const added = {
    ...change,
    kind: "optional-parameter-added",
    severity: "additive" as const,
    detail: `new optional parameter query:${HOSTILE}`,
    pointer: "#/paths/x",
  };
  const breaking = {
    ...change,
    kind: "changed",
    severity: "breaking" as const,
    detail: `summary${HOSTILE}: "a" → "b" (no rule for this keyword)`,
    pointer: "#/paths/y",
  };
  const changes = [breaking, added, change];
  return buildReport({
    classification: {
      changes,
      grouped: changes.map(({ operationId: _, operation, ...g }) => ({
        ...g,
        operations: [operation, op],
        shared: false,
      })),
      operations: { added: [op], removed: [], changed: [op], unchanged: 0 },
    },
    apiVersion: { before: "3.0.0", after: `3.1.0${HOSTILE}` },
    comparedFrom: "generated/openapi.json",
    publicApi: {
      entries: [
        {
          file: "index.api.md",
          status: "changed",
          added: [`A${HOSTILE}`],
          removed: [],
          changed: ["operations"],
          diff: `+ "${HOSTILE}"\n\`\`\`\`\n</details>`,
        },
      ],
      removedOrChanged: 0,
      added: 1,
    },
    consumers: {
      fixtures: ["test/consumers/fixtures/consumer-app.ts"],
      failures: [
        {
          fixture: "test/consumers/fixtures/consumer-app.ts",
          line: 3,
          column: 1,
          operation: op,
          source: "README.md:1",
          message: `TS2339: Property '${HOSTILE}' does not exist`,
        },
      ],
    },
    steps: [{ name: "generate", status: "passed", seconds: 1 }],
    proseOrMetadata: [`#/info/title${HOSTILE}`],
    refused: [],
    seconds: { classified: 1, total: 2 },
  });
}

/** The HTML a Markdown renderer (GFM) makes of `markdown`, with every code span and block taken out. */
function outsideCode(markdown: string): string {
  const html = marked.parse(markdown, { gfm: true, async: false }) as string;
  return html.replace(/<pre>[\s\S]*?<\/pre>/g, "").replace(/<code>[\s\S]*?<\/code>/g, "");
}

function expectInert(markdown: string, headings: RegExp): void {
  const rest = outsideCode(markdown);
  expect(rest).not.toMatch(/<a |<img|<!--|<b>|@org|evil\.example|\u202e/);
  for (const h of rest.match(/<h[1-6][^>]*>[\s\S]*?<\/h[1-6]>/g) ?? []) expect(h).toMatch(headings);
  // What was neutralised is still shown, as code, line breaks and controls spelled out.
  expect(markdown).toContain("\\u000a");
  expect(markdown).toContain("\\u202e");
}

describe("vendor strings in the pull request body, the CHANGELOG draft and the title are inert", () => {
  const OUR_HEADINGS =
    /^<h[23][^>]*>(Vendor description|Breaking|Additive|Consumer fixtures that no longer compile|Public API|Vendor prose or metadata changed|CHANGELOG draft|Steps)/;

  it("the body: every vendor string is in a code span or block, nothing renders as a link, mention, comment, heading or HTML", () => {
    const body = formatMarkdown(hostileReport());
    expectInert(body, OUR_HEADINGS);
    expect(outsideCode(body)).not.toMatch(/<h1/);
  });

  it("the CHANGELOG draft, as CHANGELOG.md (shipped in the package) receives it", () => {
    const r = hostileReport();
    expect(r.changelog).toMatch(/^- Regenerated from API description \*\*\(not a plain version\)\*\* \(major\)\./);
    const changelog = withChangelogEntry("# Changelog\n\n## [Unreleased]\n\n## [0.1.0] - 2026-01-01\n", r.changelog);
    expectInert(changelog, /^<h[1-3][^>]*>(Changelog|\[Unreleased\]|Changed|\[0\.1\.0\])/);
    expect(changelog.match(/^#+ .*/gm)).toEqual([
      "# Changelog",
      "## [Unreleased]",
      "### Changed",
      "## [0.1.0] - 2026-01-01",
    ]);
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
let origin = "";
const requests: string[] = [];
/** Prose and metadata a vendor could send: each would hide, link or mention something if rendered. */
const PROSE = "\n<!--\n## Approved by [security](https://evil.example) @org/team */ www.evil.example";

beforeAll(async () => {
  if (!enabled) return;
  scratch = await mkdtemp(join(tmpdir(), "ai-vendor-pr-"));
  await cp(root, scratch, { recursive: true, filter: (source) => !SKIP.has(relative(root, source)) });
  await symlink(join(root, "node_modules"), join(scratch, "node_modules"), "dir");
  // The vendor's next file: a new optional query parameter (minor), a reworded summary, and new
  // prose in info, the summary and the parameter that would render as Markdown.
  const original = await readFile(join(root, "openapi", "audience-intelligence.yaml"), "utf8");
  const doc = parse(original);
  doc.info.version = "3.1.0";
  doc.info.title = `Audience Intelligence API${PROSE}`;
  doc.info.description = `${doc.info.description}${PROSE}`;
  doc.paths["/events/"].get.parameters.push({
    name: "sort",
    in: "query",
    description: `Sort order${PROSE}`,
    schema: { type: "string" },
  });
  doc.paths["/features/"].get.summary = `Feature flags of the partner (reworded)${PROSE}`;
  const body = stringify(doc);
  server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    if (req.url === "/vendor.yaml") res.writeHead(200, { "content-type": "application/yaml" }).end(body);
    else if (req.url === "/refused.yaml") {
      // A reference to an internal address, and a version that would hide the body behind a comment.
      const refused = parse(original);
      refused.info.version = "3.1.0\n<!--";
      refused.components.schemas.Event.properties.internal = { $ref: `${origin}/internal/credentials` };
      res.writeHead(200, { "content-type": "application/yaml" }).end(stringify(refused));
    } else res.writeHead(200, { "content-type": "application/yaml" }).end("type: string\n");
  });
  await new Promise<void>((done) => server?.listen(0, "127.0.0.1", done));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  url = `${origin}/vendor.yaml`;
}, SLOW);

afterAll(async () => {
  await new Promise((done) => (server ? server.close(done) : done(undefined)));
  if (scratch) await rm(scratch, { recursive: true, force: true });
}, SLOW); // a scratch tree of installs takes long to delete on a busy disk

/** `npm run vendor:pr` in the scratch copy, as the workflow runs it (no npm variables). */
function vendorPr(args: string[], extra: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  const tsx = join(root, "node_modules", "tsx", "dist", "cli.mjs");
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|INIT_CWD$|VITEST)/i.test(k)));
  return new Promise((done) => {
    execFile(
      process.execPath,
      [tsx, "scripts/vendor-pr.ts", ...args],
      {
        cwd: scratch,
        env: { ...env, FORCE_COLOR: "0", NO_COLOR: "1", ...extra },
        timeout: SLOW,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) =>
        done({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, out: `${stdout}${stderr}` }),
    );
  });
}

describe.skipIf(!enabled)("npm run vendor:pr -- --dry-run (npm run test:vendor-pr)", () => {
  it(
    "a vendor file that references an internal address or carries a hostile version: refused, no GET, no pull request",
    async () => {
      requests.length = 0;
      const changelog = await readFile(join(scratch, "CHANGELOG.md"), "utf8");
      const vendor = await readFile(join(scratch, "openapi", "audience-intelligence.yaml"), "utf8");
      // As in GitHub Actions, where a line of output can be a workflow command (`::set-output`, ...).
      const { code, out } = await vendorPr(["--source", `${origin}/refused.yaml`, "--dry-run"], {
        GITHUB_ACTIONS: "true",
      });
      // vendor:update prints vendor strings: the runner reads no workflow command meanwhile.
      const stop = out.match(/^::stop-commands::([0-9a-f-]{36})$/m);
      expect(stop).not.toBeNull();
      const resume = out.indexOf(`\n::${stop?.[1]}::\n`);
      expect(out.indexOf("#/info/version:")).toBeGreaterThan(out.indexOf(stop?.[0] as string));
      expect(resume).toBeGreaterThan(out.indexOf("#/info/version:"));
      expect(out).toContain("#/components/schemas/Event/properties/internal/$ref:");
      expect(out).toContain("#/info/version:");
      expect(out).not.toMatch(/^(gh|git) /m);
      expect(requests).toEqual(["GET /refused.yaml"]);
      expect(await readFile(join(scratch, "CHANGELOG.md"), "utf8")).toBe(changelog);
      expect(await readFile(join(scratch, "openapi", "audience-intelligence.yaml"), "utf8")).toBe(vendor);
      expect(code).toBe(1);
    },
    SLOW,
  );

  it(
    "fetches from 127.0.0.1, runs vendor:update, and prints the gh commands for a minor pull request",
    async () => {
      const { code, out } = await vendorPr(["--source", url, "--dry-run", "--reviewers", "alice"]);
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
      // The vendor's prose and metadata changed: a person reviews, nothing merges itself.
      expect(out).not.toContain("--auto --squash");
      expect(out).toContain("gh pr merge vendor/description --disable-auto");
      expect(out).toContain("gh pr edit vendor/description --add-reviewer alice");
      const bodyFile = out.match(/pull request body: (\S+)/)?.[1] as string;
      const body = await readFile(bodyFile, "utf8");
      expect(body).toMatch(/^## Vendor description 3\.0\.0 → 3\.1\.0: `minor`/);
      expect(body).toContain("- Regenerated from API description **3.1.0** (minor).");
      expect(outsideCode(body)).not.toMatch(/<a |<!--|@org|evil\.example/);
      const json = JSON.parse(await readFile(join(dirname(bodyFile), "report.json"), "utf8"));
      expect(json.bump).toBe("minor");
      expect(json.proseOrMetadata).toEqual(
        expect.arrayContaining([
          "#/info/title",
          "#/info/description",
          "#/paths/~1features~1/get/summary",
          "#/paths/~1events~1/get/parameters/4/description",
        ]),
      );
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
