/**
 * The corpus of seeded description changes (vendor-corpus.ts), classified in-process the way
 * `npm run vendor:update` classifies them: vendor file → overlays → merged description, before
 * and after, then classifyChanges and semverBump. Every breaking seed must come out `major` with a
 * `breaking` change; no harmless one may.
 */
import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { applyOverlays, overlayFiles } from "../../scripts/lib/apply-overlays.ts";
import { classifyChanges, type Doc } from "../../scripts/lib/classify-changes.ts";
import { semverBump } from "../../scripts/lib/semver-bump.ts";
import { BREAKING, HARMLESS, type Seed } from "./vendor-corpus.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
let vendor: Doc;
let overlays: string[];
let before: Doc;

const merged = async (doc: Doc) => (await applyOverlays(structuredClone(doc), overlays)) as Doc;

async function classify(seed: Seed) {
  const doc = structuredClone(vendor);
  seed.edit(doc);
  const result = classifyChanges(before, await merged(doc));
  return { ...result, bump: semverBump({ changes: result.changes }) };
}

beforeAll(async () => {
  vendor = parse(await readFile(join(root, "openapi", "audience-intelligence.yaml"), "utf8")) as Doc;
  overlays = await overlayFiles(join(root, "openapi", "overlays"));
  before = await merged(vendor);
});

describe("the corpus of seeded description changes", () => {
  it("is as large as promised: at least 20 breaking kinds and 10 harmless ones", () => {
    expect(BREAKING.length).toBeGreaterThanOrEqual(20);
    expect(HARMLESS.length).toBeGreaterThanOrEqual(10);
  });

  it("the breaking seeds cover at least 20 different kinds of breaking change", async () => {
    const kinds = new Set<string>();
    for (const seed of BREAKING)
      for (const c of (await classify(seed)).changes) if (c.severity === "breaking") kinds.add(c.kind);
    expect(kinds.size, [...kinds].join(", ")).toBeGreaterThanOrEqual(20);
  });

  it("an unchanged description: no change, bump none", async () => {
    const result = await classify({ name: "nothing", edit: () => {} });
    expect(result.changes).toEqual([]);
    expect(result.bump).toBe("none");
  });

  it("a change in a shared schema is listed once, with every operation it reaches", async () => {
    const seed = BREAKING.find((s) => s.name.startsWith("a response field removed"));
    const result = await classify(seed as Seed);
    expect(result.grouped).toEqual([
      {
        pointer: "#/components/schemas/Event/properties/id",
        kind: "field-removed",
        severity: "breaking",
        detail: "response field id removed",
        operations: ["GET /events/", "GET /events/{eid}"],
        shared: true,
      },
    ]);
    expect(result.changes.map((c) => c.operation)).toEqual(["GET /events/", "GET /events/{eid}"]);
  });

  it.each(BREAKING.map((seed) => [seed.name, seed] as const))("breaking: %s → major", async (_, seed) => {
    const result = await classify(seed);
    const breaking = result.changes.filter((c) => c.severity === "breaking");
    expect(breaking.length, JSON.stringify(result.changes, null, 1)).toBeGreaterThan(0);
    for (const c of breaking) expect(c.pointer).toMatch(/^#\/(paths|components)\//);
    expect(result.bump).toBe("major");
  });

  it.each(HARMLESS.map((seed) => [seed.name, seed] as const))("harmless: %s → not major", async (_, seed) => {
    const result = await classify(seed);
    expect(
      result.changes.filter((c) => c.severity === "breaking"),
      JSON.stringify(result.changes, null, 1),
    ).toEqual([]);
    expect(result.bump).not.toBe("major");
  });
});
