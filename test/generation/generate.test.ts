/**
 * The generation pipeline: every Section 4 operation present, drift only in the overlay,
 * deterministic output, generate:check catching a stale generated/, and overlays that match
 * nothing failing generation.
 */
import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";

const run = promisify(execFile);
const root = resolve(import.meta.dirname, "..", "..");

/** Section 4 of the API specification, every (method, path); the toggles' method is assumed. */
const SECTION_4 = [
  "POST /auth",
  "POST /auth/refresh_token",
  "GET /status/",
  "GET /partners/",
  "GET /profile/",
  "GET /features/",
  "GET /permissions",
  "GET /events/",
  "GET /events/{eid}",
  "GET /events/{eid}/lookout_prediction_benchmark",
  "GET /events/{eid}/lookout_prediction",
  "GET /events/{eid}/tickets",
  "GET /events/{eid}/campaigns",
  "GET /events/{eid}/statistics",
  "GET /events/{eid}/clusters",
  "GET /events/{eid}/attribution_model",
  "GET /events/{eid}/suggested_tcs",
  "GET /events/{eid}/campaigns_expected_value",
  "GET /events/{eid}/budget_min_max",
  "GET /events/{eid}/default_campaigns_parameters",
  "GET /setup_processes/call_to_action/",
  "GET /setup_processes/{eid}",
  "POST /setup_processes/{eid}",
  "PUT /setup_processes/{eid}",
  "POST /setup_processes/{eid}/boost",
  "DELETE /setup_processes/{eid}",
  "POST /campaigns_setup",
  "GET /integrations/{adplatform}/events/{eid}/campaign_results",
  "GET /integrations/{adplatform}/events/{eid}/fb_insights",
  "GET /integrations/connect/{adplatform}/status",
  "GET /messages/partner/",
  "GET /messages/totalunread",
  "GET /notifications/",
  "GET /notifications/stats",
  "POST /ingest/transaction_summary",
  "POST /ingest/transaction_summary/from_excel",
  "POST /media",
];
/** Section 4, "query-string parameters or absent from the machine-readable description". */
const DRIFTED = [
  "POST /campaigns/",
  "PUT /events/{eid}/client_campaign_status",
  "GET /events/{eid}/client_campaign_status/task",
  "POST /events/{eid}/series",
  "GET /events/{eid}/campaign_optimisation_status",
  "PUT /events/{eid}/campaign_optimisation_status",
  "GET /events/{eid}/ad_campaign_optimisation_status",
  "PUT /events/{eid}/ad_campaign_optimisation_status",
  "GET /events/{eid}/available_events_for_series",
];

type Doc = { paths: Record<string, Record<string, { servers?: unknown }> & { servers?: Array<{ url: string }> }> };
function operationsOf(doc: Doc): string[] {
  const out: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of ["get", "put", "post", "delete", "patch"])
      if (item[method]) out.push(`${method.toUpperCase()} ${path}`);
  }
  return out.sort();
}

describe("the merged and the vendor description", () => {
  it("merged holds every Section 4 operation, the drifted ones included", async () => {
    const merged = JSON.parse(await readFile(join(root, "generated/openapi.json"), "utf8")) as Doc;
    expect(operationsOf(merged)).toEqual([...SECTION_4, ...DRIFTED].sort());
    expect(merged.paths["/media"]?.servers?.[0]?.url).toMatch(/\/api\/media$/);
  });

  it("the vendor document lacks exactly the drifted operations", async () => {
    const vendor = parse(await readFile(join(root, "openapi/audience-intelligence.yaml"), "utf8")) as Doc;
    expect(operationsOf(vendor)).toEqual([...SECTION_4].sort());
  });

  it("the overlay turns the vendor's apiKey scheme into HTTP bearer", async () => {
    const merged = JSON.parse(await readFile(join(root, "generated/openapi.json"), "utf8"));
    expect(merged.components.securitySchemes.apikey).toMatchObject({ type: "http", scheme: "bearer" });
    expect(merged.components.securitySchemes.apikey).not.toHaveProperty("in");
  });
});

describe("generation in a scratch copy of the repository", () => {
  let dir: string;
  const generate = (...args: string[]) =>
    run(join(dir, "node_modules/.bin/tsx"), ["scripts/generate.ts", ...args], { cwd: dir });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "ai-gen-test-"));
    for (const entry of ["openapi", "scripts", "generated", "redocly.yaml", "package.json"]) {
      await cp(join(root, entry), join(dir, entry), { recursive: true });
    }
    await symlink(join(root, "node_modules"), join(dir, "node_modules"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("regenerates byte-identical output (generate:check passes on the committed tree)", async () => {
    const { stdout } = await generate("--check");
    expect(stdout).toContain("matches the description");
  });

  it("generate:check fails when the vendor document changed without regeneration", async () => {
    const file = join(dir, "openapi/audience-intelligence.yaml");
    const original = await readFile(file, "utf8");
    await writeFile(file, original.replace("version: 3.0.0", "version: 3.0.1"));
    try {
      await expect(generate("--check")).rejects.toMatchObject({
        stderr: expect.stringContaining("differs from a fresh generation"),
      });
    } finally {
      await writeFile(file, original);
    }
  });

  it("generate fails when an overlay action matches nothing", async () => {
    const file = join(dir, "openapi/overlays/10-drift.overlay.yaml");
    const original = await readFile(file, "utf8");
    await writeFile(file, `${original}\n  - target: $.paths['/no/such/path'].get\n    update: { summary: nowhere }\n`);
    try {
      await expect(generate()).rejects.toMatchObject({
        stderr: expect.stringMatching(/action #\d+ \(target \$\.paths\['\/no\/such\/path'\]\.get\) matched nothing/),
      });
    } finally {
      await writeFile(file, original);
    }
  });
});

/** Value constraints Sections 2–4 never state live in the local overlay, each with its reason. */
describe("constraints the specification does not state", () => {
  const KEYWORDS = [
    "minimum",
    "exclusiveMinimum",
    "maximum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "pattern",
  ];
  /** Every (JSON pointer, keyword, value) of a constraint keyword in `doc`. */
  function constraints(doc: unknown, at = ""): string[] {
    if (!doc || typeof doc !== "object") return [];
    return Object.entries(doc).flatMap(([k, v]) =>
      KEYWORDS.includes(k) && (typeof v === "number" || typeof v === "string")
        ? [`${at} ${k}=${v}`]
        : constraints(v, `${at}/${k}`),
    );
  }

  it("the vendor file holds none: Sections 2–4 give types, formats and enums only", async () => {
    const vendor = parse(await readFile(join(root, "openapi", "audience-intelligence.yaml"), "utf8"));
    expect(constraints(vendor)).toEqual([]);
  });

  it("the merged description holds only the kept ones: no sold/revenue ≥ 0, non-empty tickets or response bounds", async () => {
    const merged = JSON.parse(await readFile(join(root, "generated", "openapi.json"), "utf8"));
    const found = constraints(merged);
    for (const dropped of ["TicketRow", "TransactionSummary/properties/tickets", "TotalUnread"])
      expect(found.filter((c) => c.includes(`/${dropped}/`) || c.includes(`/${dropped} `))).toEqual([]);
    expect(found).toContain("/components/schemas/SetupPayload/properties/total_budget exclusiveMinimum=0");
    const overlay = await readFile(join(root, "openapi", "overlays", "20-local.overlay.yaml"), "utf8");
    // each kept constraint is an overlay action with a comment giving its reason above it
    const kept = (
      parse(overlay) as { actions: Array<{ target: string; update?: Record<string, unknown> }> }
    ).actions.filter((a) => a.update && KEYWORDS.some((k) => k in (a.update as object)));
    expect(kept.length).toBeGreaterThan(0);
    for (const action of kept) {
      const line = overlay.split("\n").findIndex((l) => l.includes(`target: ${action.target}`));
      const above = overlay.split("\n").slice(0, line).reverse();
      expect(
        above.find((l) => !/^\s*- target:|^\s+update:|^\s+\w+: /.test(l)),
        action.target,
      ).toMatch(/^\s*#/);
    }
  });
});
