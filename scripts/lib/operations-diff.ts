/**
 * The operation-by-operation diff `npm run vendor:update` prints before its report: operations
 * added, removed, changed (each differing leaf, `path: before → after`), and those whose only
 * differences are prose. Vendor strings are printed with their hidden characters spelled out.
 */
import { type Doc, deref, isObject, type Json } from "./json-ref.ts";
import { visible } from "./visible-text.ts";

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;
/** Keys that do not change the contract (prose, grouping): a change limited to these is reported apart. */
const PROSE = new Set(["description", "summary", "example", "examples", "externalDocs", "tags"]);

/** One operation, self-contained: local `$ref`s resolved, path-level parameters merged in. */
export interface Operation {
  readonly key: string;
  readonly operationId: string | undefined;
  readonly body: Json;
}

export interface OperationsDiff {
  readonly added: Operation[];
  readonly removed: Operation[];
  /** Contract changes, each with its differing leaves (`path: before → after`). */
  readonly changed: { key: string; operationId: string | undefined; changes: string[] }[];
  /** Operations whose only differences are prose (descriptions, summaries, examples). */
  readonly proseOnly: string[];
  readonly unchanged: number;
  readonly versions: { before: string | undefined; after: string | undefined };
}

/** Parameters as an object keyed `in:name`, so that their order is not a change. */
function keyedParameters(list: Json | undefined): Json {
  if (!Array.isArray(list)) return {};
  return Object.fromEntries(list.filter(isObject).map((p) => [`${String(p.in)}:${String(p.name)}`, p]));
}

export function operationsOf(doc: Doc): Map<string, Operation> {
  const result = new Map<string, Operation>();
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = deref(doc, rawItem);
    if (!isObject(item)) continue;
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const own = Array.isArray(op.parameters) ? op.parameters : [];
      const body: Json = { ...op, parameters: keyedParameters([...shared, ...own]) };
      const key = `${method.toUpperCase()} ${path}`;
      result.set(key, { key, operationId: typeof op.operationId === "string" ? op.operationId : undefined, body });
    }
  }
  return result;
}

const short = (value: Json | undefined): string => {
  if (value === undefined) return "(absent)";
  const text = JSON.stringify(value);
  return text.length > 90 ? `${text.slice(0, 87)}...` : text;
};

/**
 * Contract differences between two JSON values, as `a.b.c: before → after`; prose keys are
 * skipped, except as the names of schema properties (a property may be called `description`).
 */
function leafChanges(before: Json | undefined, after: Json | undefined, path: string, out: string[]): void {
  if (JSON.stringify(before) === JSON.stringify(after)) return;
  if (isObject(before) && isObject(after)) {
    const namesProperties = path === "properties" || path.endsWith(".properties");
    for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
      if (PROSE.has(key) && !namesProperties) continue;
      leafChanges(before[key], after[key], path ? `${path}.${key}` : key, out);
    }
    return;
  }
  out.push(`${path || "(operation)"}: ${short(before)} → ${short(after)}`);
}

const version = (doc: Doc): string | undefined =>
  isObject(doc.info) && typeof doc.info.version === "string" ? doc.info.version : undefined;

export function diffOperations(before: Doc, after: Doc): OperationsDiff {
  const old = operationsOf(before);
  const next = operationsOf(after);
  const byKey = (a: { key: string }, b: { key: string }) => a.key.localeCompare(b.key);
  const changed: OperationsDiff["changed"] = [];
  const proseOnly: string[] = [];
  let unchanged = 0;
  for (const [key, op] of next) {
    const was = old.get(key);
    if (!was) continue;
    const contract: string[] = [];
    leafChanges(was.body, op.body, "", contract);
    if (contract.length) changed.push({ key, operationId: op.operationId, changes: contract });
    else if (JSON.stringify(was.body) !== JSON.stringify(op.body)) proseOnly.push(key);
    else unchanged += 1;
  }
  return {
    added: [...next.values()].filter((op) => !old.has(op.key)).sort(byKey),
    removed: [...old.values()].filter((op) => !next.has(op.key)).sort(byKey),
    changed: changed.sort(byKey),
    proseOnly: proseOnly.sort(),
    unchanged,
    versions: { before: version(before), after: version(after) },
  };
}

export const hasOperationChanges = (diff: OperationsDiff): boolean =>
  diff.added.length + diff.removed.length + diff.changed.length > 0;

/** The readable diff: one line per added/removed operation, the differing leaves under a changed one. */
export function formatDiff(diff: OperationsDiff, maxLeaves = 12): string {
  const width = Math.max(0, ...[...diff.added, ...diff.removed, ...diff.changed].map((op) => op.key.length));
  const row = (sign: string, op: { key: string; operationId: string | undefined }) =>
    `  ${sign} ${op.key.padEnd(width)}  ${op.operationId ?? ""}`.trimEnd();
  const lines = [
    `API version (info.version): ${diff.versions.before ?? "?"} → ${diff.versions.after ?? "?"}${diff.versions.before === diff.versions.after ? " (unchanged)" : ""}`,
    `Operations: ${diff.added.length} added, ${diff.removed.length} removed, ${diff.changed.length} changed, ${diff.proseOnly.length} with prose-only changes, ${diff.unchanged} unchanged`,
  ];
  for (const op of diff.added) lines.push(row("+", op));
  for (const op of diff.removed) lines.push(row("-", op));
  for (const op of diff.changed) {
    lines.push(row("~", op));
    for (const change of op.changes.slice(0, maxLeaves)) lines.push(`      ${change}`);
    if (op.changes.length > maxLeaves) lines.push(`      … and ${op.changes.length - maxLeaves} more`);
  }
  if (diff.proseOnly.length) lines.push(`  prose only: ${diff.proseOnly.join(", ")}`);
  return lines.map((line) => visible(line)).join("\n");
}
