/**
 * The report `npm run vendor:update` prints, writes as JSON (`--json`) and as a pull request body
 * (`--markdown`): the bump first, then the classified changes, the public API movement, the
 * consumer fixtures that no longer compile, a drafted CHANGELOG entry and the steps.
 *
 * Every vendor string (a path, a name, a value, a pointer, a compiler message naming a vendor
 * type) reaches the Markdown through scripts/lib/markdown-text.ts — in a code span or block, its
 * hidden characters spelled out — and the terminal with its hidden characters spelled out, so
 * that no vendor text is rendered or read as an instruction.
 */

import type { PublicApiDiff } from "./api-report.ts";
import type { Change, Classification, GroupedChange, Severity } from "./classify-changes.ts";
import type { FixtureFailure } from "./consumer-fixtures.ts";
import { code, fenced, versionText, visible } from "./markdown-text.ts";
import { type Bump, semverBump } from "./semver-bump.ts";
import type { Refusal } from "./vendor-input.ts";

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
  /**
   * JSON pointers where the vendor file's prose or metadata changed (scripts/lib/vendor-prose.ts):
   * a pull request with any is never merged automatically.
   */
  readonly proseOrMetadata: string[];
  /** Why the vendor file was refused before anything ran (scripts/lib/vendor-input.ts); empty when it was accepted. */
  readonly refused: Refusal[];
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
  proseOrMetadata: string[];
  refused: Refusal[];
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
    proseOrMetadata: input.proseOrMetadata,
    refused: input.refused,
    seconds: input.seconds,
  };
  return { ...base, changelog: changelogDraft(base) };
}

/** The operations a change reaches, each a code span. */
const where = (g: GroupedChange) => g.operations.map(code).join(", ");

/** Declaration names of the public API report, each a code span. */
const names = (label: string, list: readonly string[]) => (list.length ? `${label} ${list.map(code).join(", ")}` : "");

/** A CHANGELOG entry under **Unreleased**, in the words docs/REGENERATING.md asks for; vendor strings as code. */
function changelogDraft(r: Omit<Report, "changelog">): string {
  const lines = [`- Regenerated from API description **${versionText(r.apiVersion.after)}** (${r.bump}).`];
  const list = (severity: Severity, label: string) => {
    for (const g of r.grouped.filter((c) => c.severity === severity))
      lines.push(`  - ${label}: ${where(g)} — ${code(g.detail)} (${code(g.pointer)}).`);
  };
  list("breaking", "**Breaking**");
  list("additive", "Added");
  if (r.counts.prose) lines.push(`  - Documentation: ${r.counts.prose} description or example edits.`);
  const api = r.publicApi?.entries.filter((e) => e.status !== "unchanged") ?? [];
  for (const e of api)
    lines.push(
      `  - Public API, ${code(e.file)}: ${[
        names("added", e.added),
        names("removed", e.removed),
        names("changed", e.changed),
      ]
        .filter(Boolean)
        .join("; ")}.`,
    );
  return lines.join("\n");
}

const places = (n: number) => `${n} ${n === 1 ? "place" : "places"}`;

const mark: Record<Step["status"], string> = { passed: "ok  ", failed: "FAIL", skipped: "skip" };

/** The report for a terminal: summary first; vendor strings with their hidden characters spelled out. */
export function formatText(r: Report): string {
  const out = [
    "== vendor:update: report",
    `bump: ${r.bump}   breaking ${r.counts.breaking}, additive ${r.counts.additive}, prose ${r.counts.prose}`,
    `failing steps: ${r.failingSteps.length ? r.failingSteps.join(", ") : "none"}`,
    `API version (info.version): ${visible(r.apiVersion.before ?? "?", 80)} → ${visible(r.apiVersion.after ?? "?", 80)}`,
    `operations: ${r.operations.added.length} added, ${r.operations.removed.length} removed, ${r.operations.changed.length} changed, ${r.operations.unchanged} unchanged (compared: ${r.comparedFrom})`,
    `prose or metadata changed: ${r.proseOrMetadata.length ? `${places(r.proseOrMetadata.length)} (a person reviews; never merged automatically)` : "none"}`,
    `classified in ${r.seconds.classified.toFixed(1)} s, report complete in ${r.seconds.total.toFixed(1)} s`,
  ];
  if (r.refused.length) {
    out.push("", "refused (the vendor file is data only; nothing ran):");
    for (const f of r.refused) out.push(`  ${visible(f.pointer)}: ${visible(f.reason)}`);
  }
  for (const severity of ["breaking", "additive", "prose"] as const) {
    const list = r.grouped.filter((g) => g.severity === severity);
    if (!list.length) continue;
    out.push("", `${severity}:`);
    for (const g of list) {
      out.push(`  ${g.kind}  ${visible(g.pointer)}`);
      out.push(`      ${visible(g.detail)}`);
      out.push(
        `      ${g.shared || g.operations.length > 1 ? `reaches ${g.operations.length}: ` : ""}${g.operations.map((o) => visible(o)).join(", ")}`,
      );
    }
  }
  if (r.proseOrMetadata.length) {
    out.push("", "prose or metadata (vendor file):");
    for (const pointer of r.proseOrMetadata.slice(0, 30)) out.push(`  ${visible(pointer)}`);
    if (r.proseOrMetadata.length > 30) out.push(`  … and ${r.proseOrMetadata.length - 30} more`);
  }
  if (r.publicApi) {
    out.push("", "public API (api-report/, before → after):");
    for (const e of r.publicApi.entries) {
      const moved = [
        e.added.length ? `+ ${e.added.join(", ")}` : "",
        e.removed.length ? `- ${e.removed.join(", ")}` : "",
        e.changed.length ? `~ ${e.changed.join(", ")}` : "",
      ].filter(Boolean);
      out.push(visible(`  ${e.file}: ${e.status}${moved.length ? `  ${moved.join("  ")}` : ""}`));
    }
    const moved = r.publicApi.entries.filter((e) => e.status !== "unchanged");
    for (const e of moved)
      out.push(
        clip(e.diff, 40)
          .split("\n")
          .map((line) => visible(line))
          .join("\n"),
      );
  }
  if (r.consumers) {
    out.push("", `consumer fixtures: ${r.consumers.fixtures.length} checked, ${r.consumers.failures.length} errors`);
    for (const f of r.consumers.failures)
      out.push(
        visible(
          `  ${f.fixture}:${f.line}${f.operation ? ` (${f.operation})` : ""}${f.source ? ` [${f.source}]` : ""}: ${f.message}`,
        ),
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

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** One change as a list item: our kind, then the vendor's detail, pointer and operations as code. */
const changeItem = (g: GroupedChange) => `- ${g.kind}: ${code(g.detail)} at ${code(g.pointer)} — ${where(g)}`;

/** The pull request body. */
export function formatMarkdown(r: Report): string {
  const out = [
    `## Vendor description ${versionText(r.apiVersion.before)} → ${versionText(r.apiVersion.after)}: \`${r.bump}\``,
    "",
    `| bump | breaking | additive | prose | failing steps |`,
    `|---|---|---|---|---|`,
    `| **${r.bump}** | ${r.counts.breaking} | ${r.counts.additive} | ${r.counts.prose} | ${r.failingSteps.join(", ") || "none"} |`,
    "",
    `Operations: ${r.operations.added.length} added, ${r.operations.removed.length} removed, ${r.operations.changed.length} changed, ${r.operations.unchanged} unchanged.`,
  ];
  if (r.refused.length) {
    out.push("", "### Refused", "", "The vendor file is data only; nothing was generated.", "");
    for (const f of r.refused) out.push(`- ${code(f.pointer)}: ${code(f.reason)}`);
  }
  for (const severity of ["breaking", "additive", "prose"] as const) {
    const list = r.grouped.filter((g) => g.severity === severity).map(changeItem);
    if (!list.length) continue;
    if (severity === "prose") out.push("", "<details><summary>Prose</summary>", "", ...list, "", "</details>");
    else out.push("", `### ${severity === "breaking" ? "Breaking" : "Additive"}`, "", ...list);
  }
  if (r.proseOrMetadata.length) {
    out.push(
      "",
      "### Vendor prose or metadata changed",
      "",
      `${places(r.proseOrMetadata.length)} in the vendor file: a person reads them; this pull request does not merge itself.`,
      "",
      ...r.proseOrMetadata.slice(0, 30).map((pointer) => `- ${code(pointer)}`),
    );
    if (r.proseOrMetadata.length > 30) out.push(`- … and ${r.proseOrMetadata.length - 30} more`);
  }
  if (r.consumers?.failures.length) {
    out.push("", "### Consumer fixtures that no longer compile", "");
    for (const f of r.consumers.failures)
      out.push(
        `- ${code(`${f.fixture}:${f.line}`)}${f.operation ? ` (${code(f.operation)})` : ""}${f.source ? `, pinned from ${code(f.source)}` : ""}: ${code(f.message)}`,
      );
  }
  const moved = r.publicApi?.entries.filter((e) => e.status !== "unchanged") ?? [];
  out.push("", "### Public API", "");
  if (!moved.length) out.push("No entry point's API report moved.");
  for (const e of moved)
    out.push(
      `<details><summary><code>api-report/${escapeHtml(e.file)}</code>: ${e.status}</summary>`,
      "",
      fenced(clip(e.diff, 400), "diff"),
      "",
      "</details>",
    );
  out.push("", "### CHANGELOG draft", "", r.changelog, "", "### Steps", "");
  for (const s of r.steps) out.push(`- ${s.status === "passed" ? "✅" : s.status === "failed" ? "❌" : "⏭️"} ${s.name}`);
  out.push("", "_Written by `npm run vendor:update -- <file> --markdown <path>` (docs/REGENERATING.md)._", "");
  return out.join("\n");
}
