/**
 * `npm run vendor:update` as a consumer's CI runs it, fed modified copies
 * of the vendor description in a scratch copy of this repository (the real working tree is never
 * touched; node_modules is linked, not copied).
 *
 * Slow (each scenario regenerates, type-checks and runs the contract suite): not part of
 * `npm test`; `npm run test:vendor-update` runs it, and CI does.
 */
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const enabled = process.env.PACKAGING_TESTS === "1";
const SLOW = 420_000;
/** Not part of a checkout, or rebuilt from it. */
const SKIP = new Set(["node_modules", ".git", "dist", "coverage", ".api-report-cache", join("docs", "api")]);

type Doc = { info: { version: string }; paths: Record<string, Record<string, { parameters?: unknown[] }>> };

let scratch = "";
let vendor: Doc;
let server: Server | undefined;
let origin = "";
const requests: string[] = [];

/**
 * Runs vendor:update in the scratch copy, after restoring its description and generated files,
 * with the vendor file as `change` edits it (unchanged, byte for byte, without `change`).
 */
async function vendorUpdate(change?: (doc: Doc) => void, ...flags: string[]): Promise<{ code: number; out: string }> {
  await cp(join(root, "openapi"), join(scratch, "openapi"), { recursive: true, force: true });
  await cp(join(root, "generated"), join(scratch, "generated"), { recursive: true, force: true });
  await cp(join(root, "api-report"), join(scratch, "api-report"), { recursive: true, force: true });
  await mkdir(join(scratch, "incoming"), { recursive: true });
  const file = join(scratch, "incoming", `vendor-${Date.now()}.yaml`);
  if (change) {
    const doc = structuredClone(vendor);
    change(doc);
    await writeFile(file, stringify(doc));
  } else {
    await cp(join(root, "openapi", "audience-intelligence.yaml"), file);
  }
  const tsx = join(root, "node_modules", "tsx", "dist", "cli.mjs");
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|INIT_CWD$|VITEST)/i.test(k)));
  return new Promise((done) => {
    execFile(
      process.execPath,
      [tsx, "scripts/vendor-update.ts", file, ...flags],
      { cwd: scratch, env: { ...env, FORCE_COLOR: "0", NO_COLOR: "1" }, timeout: SLOW, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        done({ code, out: `${stdout}${stderr}` });
      },
    );
  });
}

beforeAll(async () => {
  if (!enabled) return;
  vendor = parse(await readFile(join(root, "openapi", "audience-intelligence.yaml"), "utf8")) as Doc;
  scratch = await mkdtemp(join(tmpdir(), "ai-vendor-update-"));
  await cp(root, scratch, { recursive: true, filter: (source) => !SKIP.has(relative(root, source)) });
  await symlink(join(root, "node_modules"), join(scratch, "node_modules"), "dir");
  // Stands in for an internal address a vendor file might reference: counts what reaches it.
  server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { "content-type": "application/yaml" }).end("type: string\n");
  });
  await new Promise<void>((done) => server?.listen(0, "127.0.0.1", done));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
}, SLOW);

afterAll(async () => {
  await new Promise((done) => (server ? server.close(done) : done(undefined)));
  if (scratch) await rm(scratch, { recursive: true, force: true });
}, SLOW); // a scratch tree of installs takes long to delete on a busy disk

/** The committed description and generated files, as the scratch copy holds them. */
const committed = async () =>
  Promise.all(
    ["openapi/audience-intelligence.yaml", "generated/openapi.json", "generated/schema.ts", "generated/version.ts"].map(
      (f) => readFile(join(scratch, f), "utf8"),
    ),
  );

describe.skipIf(!enabled)("vendor:update (npm run test:vendor-update)", () => {
  it("does nothing, and passes, when the file is the current description", async () => {
    const { code, out } = await vendorUpdate();
    expect(out).toContain("nothing to do");
    expect(code).toBe(0);
  });

  it(
    "an identical file with --json and --markdown: the report is written, bump none, no changes",
    async () => {
      const json = join(scratch, "incoming", "identical.json");
      const markdown = join(scratch, "incoming", "identical.md");
      await rm(json, { force: true });
      const { code, out } = await vendorUpdate(undefined, "--json", json, "--markdown", markdown);
      expect(out).toContain("nothing to do");
      const report = JSON.parse(await readFile(json, "utf8"));
      expect(report).toMatchObject({
        bump: "none",
        apiVersion: { before: "3.0.0", after: "3.0.0" },
        counts: { breaking: 0, additive: 0, prose: 0 },
        changes: [],
        grouped: [],
        failingSteps: [],
        proseOrMetadata: [],
        refused: [],
      });
      expect(await readFile(markdown, "utf8")).toMatch(/^## Vendor description 3\.0\.0 → 3\.0\.0: `none`/);
      expect(code).toBe(0);
    },
    SLOW,
  );

  it(
    "a reference to another address is refused before generation: its pointer named, no GET, nothing written, the report says why",
    async () => {
      requests.length = 0;
      const before = await committed();
      const json = join(scratch, "incoming", "refused.json");
      const { code, out } = await vendorUpdate(
        (doc) => {
          const schemas = (doc as unknown as { components: { schemas: Record<string, { properties: object }> } })
            .components.schemas;
          (schemas.Event as { properties: Record<string, unknown> }).properties.internal = {
            $ref: `${origin}/latest/meta-data`,
          };
          (doc.paths["/events/"] as Record<string, unknown>)["x-docs"] = { $ref: "//127.0.0.1/elsewhere.yaml" };
        },
        "--json",
        json,
      );
      expect(out).toContain("#/components/schemas/Event/properties/internal/$ref:");
      expect(out).toContain("#/paths/~1events~1/x-docs/$ref:");
      expect(out).not.toContain("== vendor:update: generate");
      expect(requests).toEqual([]);
      expect(await committed()).toEqual(before);
      const report = JSON.parse(await readFile(json, "utf8"));
      expect(report.refused.map((r: { pointer: string }) => r.pointer).sort()).toEqual([
        "#/components/schemas/Event/properties/internal/$ref",
        "#/paths/~1events~1/x-docs/$ref",
      ]);
      expect(report.failingSteps).toEqual(["vendor file is data only"]);
      expect(code).toBe(1);
    },
    SLOW,
  );

  it(
    "an info.version that is not a plain version token is refused, nothing written",
    async () => {
      const before = await committed();
      const { code, out } = await vendorUpdate((doc) => {
        doc.info.version = "3.1.0\n<!--\n## [Approved](https://evil.example) @org/team";
      });
      expect(out).toContain("#/info/version:");
      expect(out).toMatch(/not a plain version token/);
      expect(await committed()).toEqual(before);
      expect(code).toBe(1);
    },
    SLOW,
  );

  it(
    "a compatible change: every check passes, and it stops (exit 2) with the changed operation",
    async () => {
      const { code, out } = await vendorUpdate((doc) => {
        doc.info.version = "3.1.0";
        doc.paths["/events/"]?.get?.parameters?.push({
          name: "sort",
          in: "query",
          schema: { type: "string", enum: ["date", "name"] },
        });
        (doc.paths["/features/"]?.get as { summary?: string }).summary = "Feature flags of the partner (reworded)";
      });
      expect(out).toContain("API version (info.version): 3.0.0 → 3.1.0");
      expect(out).toMatch(/Operations: 0 added, 0 removed, 1 changed, 1 with prose-only changes, \d+ unchanged/);
      expect(out).toMatch(/~ GET \/events\/\s+listEvents\n\s+parameters\.query:sort: \(absent\) → \{"name":"sort"/);
      expect(out).toContain("prose only: GET /features/");
      expect(out).toMatch(
        /ok\s+generate.*\n\s+ok\s+typecheck.*\n\s+ok\s+contract suite.*\n\s+ok\s+consumer fixtures.*\n\s+ok\s+public API report/,
      );
      // The report, summary first: the bump, the counts, the failing steps.
      expect(out).toMatch(
        /== vendor:update: report\nbump: minor {3}breaking 0, additive 1, prose 1\nfailing steps: none\n/,
      );
      expect(out).toMatch(/additive:\n {2}optional-parameter-added {2}#\/paths\/~1events~1\/get\/parameters\/4\n/);
      expect(out).toMatch(/index\.api\.md: changed {2}~ API_VERSION, operations/);
      expect(out).toContain("- Regenerated from API description **3.1.0** (minor).");
      expect(out).toContain("operations changed (minor). Review the diff above");
      expect(code).toBe(2);
      // The working tree of the scratch copy now holds the regenerated client.
      const merged = JSON.parse(await readFile(join(scratch, "generated", "openapi.json"), "utf8")) as Doc;
      expect(merged.info.version).toBe("3.1.0");
    },
    SLOW,
  );

  it(
    "a breaking change: an operation the client uses is removed — type-check and contract fail (exit 1), the diff names it",
    async () => {
      const { code, out } = await vendorUpdate((doc) => {
        delete doc.paths["/partners/"];
        const post = doc.paths["/profile/"] as Record<string, unknown>;
        post.post = {
          operationId: "updateProfile",
          summary: "Update the profile",
          responses: { "204": { description: "Updated" }, "400": { description: "Bad request" } },
        };
      });
      expect(out).toMatch(/Operations: 1 added, 1 removed, 0 changed/);
      expect(out).toMatch(/\+ POST \/profile\/\s+updateProfile/);
      expect(out).toMatch(/- GET \/partners\/\s+getPartners/);
      expect(out).toMatch(/ok\s+generate.*\n\s+FAIL\s+typecheck.*\n\s+FAIL\s+contract suite/);
      expect(out).toMatch(/bump: major {3}breaking [1-9]/);
      expect(out).toMatch(/failing steps: typecheck, contract suite \(test\/contract\)/);
      expect(out).toMatch(/path-renamed|operation-removed {2}#\/paths\/~1partners~1\/get/);
      expect(out).toContain("vendor:update FAILED");
      expect(code).toBe(1);
    },
    SLOW,
  );

  it(
    "a field consumers read is removed: the fixtures that read it fail by name, line and operation; --json and --markdown",
    async () => {
      const json = join(scratch, "incoming", "report.json");
      const markdown = join(scratch, "incoming", "body.md");
      const { code, out } = await vendorUpdate(
        (doc) => {
          const event = (
            doc as unknown as {
              components: { schemas: { Event: { properties: Record<string, unknown>; required: string[] } } };
            }
          ).components.schemas.Event;
          delete event.properties.id;
          event.required = [];
        },
        "--json",
        json,
        "--markdown",
        markdown,
      );
      expect(out).toMatch(
        /test\/consumers\/fixtures\/consumer-app\.ts:\d+ \(GET \/events\/\{eid\}\) \[test\/packaging\/consumer-app\.ts:\d+\]: TS\d+/,
      );
      expect(out).toMatch(/FAIL\s+consumer fixtures/);
      const report = JSON.parse(await readFile(json, "utf8"));
      expect(report.bump).toBe("major");
      expect(report.changes).toContainEqual({
        operation: "GET /events/{eid}",
        operationId: "getEvent",
        pointer: "#/components/schemas/Event/properties/id",
        kind: "field-removed",
        severity: "breaking",
        detail: "response field id removed",
      });
      // Every fixture that reads the field fails (the README's list example through GET /events/
      // too); the consumer app's read of one event is among them, named by its operation.
      expect(report.consumers.failures).toContainEqual(expect.objectContaining({ operation: "GET /events/{eid}" }));
      expect(report.steps.find((s: { name: string }) => s.name.startsWith("consumer fixtures")).status).toBe("failed");
      expect(await readFile(markdown, "utf8")).toContain("### Consumer fixtures that no longer compile");
      expect(code).toBe(1);
    },
    SLOW,
  );

  it(
    "an overlay no longer applies: generation fails, the rest is skipped, and the diff comes from the vendor files",
    async () => {
      const { code, out } = await vendorUpdate((doc) => {
        delete doc.paths["/media"];
      });
      expect(out).toMatch(/matched nothing/);
      expect(out).toContain("(vendor file, overlays not applied, before → after)");
      expect(out).toMatch(/- POST \/media\s+uploadMedia/);
      expect(out).toMatch(/FAIL\s+generate.*\n\s+skip\s+typecheck\n\s+skip\s+contract suite/);
      expect(code).toBe(1);
    },
    SLOW,
  );
});
