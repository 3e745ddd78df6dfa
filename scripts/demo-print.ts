/**
 * How the demo prints what examples/quickstart.ts hands it: aligned tables and short cells, every
 * piece of server text escaped first, so that what the server sent cannot drive the terminal (an
 * OSC 52 sequence in an event name would write the clipboard). Repository tooling: it may use the
 * package's own escaping, which is not public API.
 */
import type { Printer } from "../examples/quickstart.ts";
import { terminalSafe } from "../src/internal/terminal-text.ts";

// A table shows a glimpse of a body, not all of it: the work stays small whatever the server sends
// (every row with keys of its own made a 1 200-row body cost 1 200 × 1 200 cells).
const MAX_ROWS = 20;
const MAX_COLUMNS = 8;
const MAX_CELL = 60;

/** Any value as one short line that is safe for a terminal (JSON for objects, escaped, cut at MAX_CELL). */
export function show(value: unknown): string {
  let text: string;
  if (value === undefined) return "";
  if (typeof value === "object" && value !== null) {
    try {
      text = JSON.stringify(value) ?? "";
    } catch {
      text = "(too deeply nested to show)"; // JSON.stringify recurses: a few thousand levels overflow
    }
  } else {
    text = String(value);
  }
  if (text.length > MAX_CELL) text = `${text.slice(0, MAX_CELL - 1)}…`;
  return terminalSafe(text);
}

/** Prints rows as an aligned table: at most MAX_ROWS rows and MAX_COLUMNS columns, every cell through {@link show}. */
export function table(rows: ReadonlyArray<Record<string, unknown>>): string {
  if (rows.length === 0) return "  (none)";
  const shown = rows.slice(0, MAX_ROWS);
  const keys = new Set<string>();
  for (const row of shown) for (const key of Object.keys(row)) keys.add(key);
  const columns = [...keys].slice(0, MAX_COLUMNS);
  const header = columns.map(show);
  const cells = shown.map((r) => columns.map((c) => show(r[c])));
  const widths = header.map((h, i) => cells.reduce((w, row) => Math.max(w, (row[i] as string).length), h.length));
  const line = (values: string[]) => `  ${values.map((v, i) => v.padEnd(widths[i] as number)).join("  ")}`.trimEnd();
  const more = [
    rows.length > shown.length ? `${rows.length - shown.length} more rows` : "",
    keys.size > columns.length ? `${keys.size - columns.length} more columns` : "",
  ].filter(Boolean);
  return [
    line(header),
    line(widths.map((w) => "-".repeat(w))),
    ...cells.map(line),
    ...(more.length ? [`  … ${more.join(", ")}`] : []),
  ].join("\n");
}

/** The demo's printer: to stdout, server text escaped. */
export const terminalPrinter: Printer = {
  heading: (title) => console.log(`\n${title}\n${"=".repeat(title.length)}`),
  table: (rows) => console.log(table(rows)),
  show,
  line: (text) => console.log(text),
};
