/**
 * The report `npm run vendor:update` prints, writes as JSON (`--json`) and as a pull request body
 * (`--markdown`): the bump first, then the classified changes, the public API movement, the
 * consumer fixtures that no longer compile, a drafted CHANGELOG entry and the steps.
 */

import type { PublicApiDiff } from "./api-report.ts";
import type { Change, Classification, GroupedChange, Severity } from "./classify-changes.ts";
import type { FixtureFailure } from "./consumer-fixtures.ts";
import { type Bump, semverBump } from "./semver-bump.ts";

export interface Step {
  readonly name: string;
  readonly status: "passed" | "failed" | "skipped";
  readonly seconds?: number;
}

export interface Report {
  readonly bump: Bump;
  readonly apiVersion: { readonly before: string | undefined; readonly after: string | undefined };
  /** "generated/openapi.json" (vendor file + overlays), or the vendor files when generation failed. */
  readonly comparedFrom: string;
  readonly counts: Record<Severity, number>;
  readonly operations: Classification["operations"];
  readonly changes: Change[];
  /** The changes as listed for people: one entry per change, with every operation it reaches. */
  readonly grouped: GroupedChange[];
  readonly publicApi: PublicApiDiff | undefined;
  readonly consumers: { readonly fixtures: string[]; readonly failures: FixtureFailure[] } | undefined;
  readonly steps: Step[];
  readonly failingSteps: string[];
  readonly changelog: string;
  readonly seconds: { readonly classified: number; readonly total: number };
}

export function buildReport(input: {
  classification: Classification;
  apiVersion: Report["apiVersion"];
  comparedFrom: string;
  publicApi: PublicApiDiff | undefined;
  consumers: Report["consumers"];
  steps: Step[];
  seconds: Report["seconds"];
}): Report {
  const { classification, publicApi, consumers, steps } = input;
  const counts = { breaking: 0, additive: 0, prose: 0 };
  for (const c of classification.grouped) counts[c.severity] += 1;
  const bump = semverBump({
    changes: classification.changes,
    ...(publicApi ? { publicApi } : {}),
    consumersBroken: (consumers?.failures.length ?? 0) > 0,
  });
  const base = {
    bump,
    apiVersion: input.apiVersion,
    comparedFrom: input.comparedFrom,
    counts,
    operations: classification.operations,
    changes: classification.changes,
    grouped: classification.grouped,
    publicApi,
    consumers,
    steps,
    failingSteps: steps.filter((s) => s.status === "failed").map((s) => s.name),
    seconds: input.seconds,
  };
  return { ...base, changelog: changelogDraft(base) };
}

const where = (g: GroupedChange) =>
  g.operations.length > 1 || g.shared ? `${g.operations.join(", ")}` : (g.operations[0] ?? "");

/** A CHANGELOG entry under **Unreleased**, in the words docs/REGENERATING.md asks for. */
function changelogDraft(r: Omit<Report, "changelog">): string {
  const lines = [`- Regenerated from API description **${r.apiVersion.after ?? "?"}** (${r.bump}).`];
  const list = (severity: Severity, label: string) => {
    for (const g of r.grouped.filter((c) => c.severity === severity))
      lines.push(`  - ${label}: ${where(g)} — ${g.detail} (\`${g.pointer}\`).`);
  };
  list("breaking", "**Breaking**");
  list("additive", "Added");
  if (r.counts.prose) lines.push(`  - Documentation: ${r.counts.prose} description or example edits.`);
  const api = r.publicApi?.entries.filter((e) => e.status !== "unchanged") ?? [];
  for (const e of api)
    lines.push(
      `  - Public API, \`${e.file}\`: ${[
        e.added.length ? `added ${e.added.join(", ")}` : "",
        e.removed.length ? `removed ${e.removed.join(", ")}` : "",
        e.changed.length ? `changed ${e.changed.join(", ")}` : "",
      ]
        .filter(Boolean)
        .join("; ")}.`,
    );
  return lines.join("\n");
}

const mark: Record<Step["status"], string> = { passed: "ok  ", failed: "FAIL", skipped: "skip" };

/** The report for a terminal: summary first. */
export function formatText(r: Report): string {
  const out = [
    "== vendor:update: report",
    `bump: ${r.bump}   breaking ${r.counts.breaking}, additive ${r.counts.additive}, prose ${r.counts.prose}`,
    `failing steps: ${r.failingSteps.length ? r.failingSteps.join(", ") : "none"}`,
    `API version (info.version): ${r.apiVersion.before ?? "?"} → ${r.apiVersion.after ?? "?"}`,
    `operations: ${r.operations.added.length} added, ${r.operations.removed.length} removed, ${r.operations.changed.length} changed, ${r.operations.unchanged} unchanged (compared: ${r.comparedFrom})`,
    `classified in ${r.seconds.classified.toFixed(1)} s, report complete in ${r.seconds.total.toFixed(1)} s`,
  ];
  for (const severity of ["breaking", "additive", "prose"] as const) {
    const list = r.grouped.filter((g) => g.severity === severity);
    if (!list.length) continue;
    out.push("", `${severity}:`);
    for (const g of list) {
      out.push(`  ${g.kind}  ${g.pointer}`);
      out.push(`      ${g.detail}`);
      out.push(
        `      ${g.shared || g.operations.length > 1 ? `reaches ${g.operations.length}: ` : ""}${g.operations.join(", ")}`,
      );
    }
  }
  if (r.publicApi) {
    out.push("", "public API (api-report/, before → after):");
    for (const e of r.publicApi.entries) {
      const names = [
        e.added.length ? `+ ${e.added.join(", ")}` : "",
        e.removed.length ? `- ${e.removed.join(", ")}` : "",
        e.changed.length ? `~ ${e.changed.join(", ")}` : "",
      ].filter(Boolean);
      out.push(`  ${e.file}: ${e.status}${names.length ? `  ${names.join("  ")}` : ""}`);
    }
    const moved = r.publicApi.entries.filter((e) => e.status !== "unchanged");
    for (const e of moved) out.push(clip(e.diff, 40));
  }
  if (r.consumers) {
    out.push("", `consumer fixtures: ${r.consumers.fixtures.length} checked, ${r.consumers.failures.length} errors`);
    for (const f of r.consumers.failures)
      out.push(
        `  ${f.fixture}:${f.line}${f.operation ? ` (${f.operation})` : ""}${f.source ? ` [${f.source}]` : ""}: ${f.message}`,
      );
  }
  out.push("", "CHANGELOG draft (under Unreleased):", r.changelog, "", "steps:");
  for (const s of r.steps)
    out.push(`  ${mark[s.status]}  ${s.name}${s.seconds === undefined ? "" : ` (${s.seconds.toFixed(1)} s)`}`);
  return out.join("\n");
}

function clip(text: string, lines: number): string {
  const all = text.trimEnd().split("\n");
  return all.length <= lines
    ? all.join("\n")
    : [...all.slice(0, lines), `… ${all.length - lines} more lines`].join("\n");
}

const cell = (text: string) => text.replaceAll("|", "\\|");

/** The pull request body. */
export function formatMarkdown(r: Report): string {
  const out = [
    `## Vendor description ${r.apiVersion.before ?? "?"} → ${r.apiVersion.after ?? "?"}: \`${r.bump}\``,
    "",
    `| bump | breaking | additive | prose | failing steps |`,
    `|---|---|---|---|---|`,
    `| **${r.bump}** | ${r.counts.breaking} | ${r.counts.additive} | ${r.counts.prose} | ${r.failingSteps.join(", ") || "none"} |`,
    "",
    `Operations: ${r.operations.added.length} added, ${r.operations.removed.length} removed, ${r.operations.changed.length} changed, ${r.operations.unchanged} unchanged.`,
  ];
  for (const severity of ["breaking", "additive", "prose"] as const) {
    const list = r.grouped.filter((g) => g.severity === severity);
    if (!list.length) continue;
    const rows = [
      "| change | where (JSON pointer) | operations |",
      "|---|---|---|",
      ...list.map(
        (g) => `| ${cell(g.kind)}: ${cell(g.detail)} | \`${cell(g.pointer)}\` | ${cell(g.operations.join(", "))} |`,
      ),
    ];
    if (severity === "prose") out.push("", "<details><summary>Prose</summary>", "", ...rows, "", "</details>");
    else out.push("", `### ${severity === "breaking" ? "Breaking" : "Additive"}`, "", ...rows);
  }
  if (r.consumers?.failures.length) {
    out.push("", "### Consumer fixtures that no longer compile", "");
    for (const f of r.consumers.failures)
      out.push(
        `- \`${f.fixture}:${f.line}\`${f.operation ? ` (${f.operation})` : ""}${f.source ? `, pinned from ${f.source}` : ""}: ${f.message}`,
      );
  }
  const moved = r.publicApi?.entries.filter((e) => e.status !== "unchanged") ?? [];
  out.push("", "### Public API", "");
  if (!moved.length) out.push("No entry point's API report moved.");
  for (const e of moved)
    out.push(
      `<details><summary><code>api-report/${e.file}</code>: ${e.status}</summary>`,
      "",
      "```diff",
      clip(e.diff, 400),
      "```",
      "",
      "</details>",
    );
  out.push("", "### CHANGELOG draft", "", r.changelog, "", "### Steps", "");
  for (const s of r.steps) out.push(`- ${s.status === "passed" ? "✅" : s.status === "failed" ? "❌" : "⏭️"} ${s.name}`);
  out.push("", "_Written by `npm run vendor:update -- <file> --markdown <path>` (docs/REGENERATING.md)._", "");
  return out.join("\n");
}
