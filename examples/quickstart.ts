/**
 * Quick start: the client's main job, through the public API only — sign in, choose the partner
 * from the IdToken, list events, read a benchmark with its detected unit, get suggested clusters,
 * create a draft, autosave two edits, publish, read campaign results and the unread count.
 *
 * Run it with `npm run demo` (embedded Prism mock) or
 * `AI_USERNAME=… AI_PASSWORD=… npm run demo -- --base-url https://<host>/api/v3`.
 */
import {
  type AudienceClient,
  type AudienceClientOptions,
  countUnreadMessages,
  createAudienceClient,
  listEvents,
  readBenchmark,
  unwrap,
} from "../src/index.ts";
// Not public API: the package's own escaping, so that what the server sent cannot drive the
// terminal (an OSC 52 sequence in an event name would write the clipboard). Escape server text
// the same way before printing it in your own code.
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

const heading = (title: string) => console.log(`\n${title}\n${"=".repeat(title.length)}`);
const asRows = (body: unknown): Array<Record<string, unknown>> =>
  (Array.isArray(body) ? body : body && typeof body === "object" ? [body] : []).map((r) =>
    r && typeof r === "object" ? (r as Record<string, unknown>) : { value: r },
  );

/** Runs the quick start; `watch` is handed the client it made (the demo reads its rate state). */
export async function quickstart(
  options: Pick<AudienceClientOptions, "baseUrl" | "mediaUrl" | "credentials" | "partnerId" | "adPlatform" | "logger">,
  watch?: (client: AudienceClient) => void,
): Promise<void> {
  const client = createAudienceClient({ ...options, adPlatform: options.adPlatform ?? "meta" });
  watch?.(client);

  heading("Events (paginated)");
  const events = [];
  for await (const event of listEvents(client, { limit: 50, maxItems: 10 })) events.push(event);
  console.log(table(events.map((e) => ({ id: e.id, name: e.name, status: e.frontend_status }))));
  console.log(`\nSigned in once; partner chosen from the IdToken: ${show(client.partnerId())}`);
  const eid = events[0]?.id;
  if (!eid) throw new Error("No events to work with");

  heading(`Benchmark of ${show(eid)} (capacity)`);
  const benchmark = await readBenchmark(client, eid, { type: "capacity" });
  console.log(
    table(benchmark.values.map((raw, i) => ({ "#": i + 1, raw, fraction: benchmark.fractions[i]?.toFixed(3) }))),
  );
  console.log(
    `\nDetected unit: ${benchmark.unit}${benchmark.ambiguous ? " (ambiguous: values between 1.5 and 3)" : ""}`,
  );

  heading("Suggested taste clusters for 1 500, goal UTILIZATION");
  const suggested = unwrap(
    await client.GET("/events/{eid}/suggested_tcs", {
      params: { path: { eid }, query: { budget: 1500, goal: "UTILIZATION" } },
    }),
  );
  console.log(table(asRows(suggested)));

  heading("Campaign setup");
  const setup = client.setupProcess(eid);
  const draft = {
    goal: "UTILIZATION" as const,
    total_budget: 1500,
    start_date: "2027-05-01",
    end_date: "2027-05-31",
    tc_run_id: 42,
  };
  await setup.create(draft);
  console.log(`  draft created                  state: ${setup.state}`);
  void setup.autosave({ ...draft, total_budget: 1800 });
  void setup.autosave({ ...draft, total_budget: 2000, end_date: "2027-06-07" });
  await setup.flush();
  console.log(`  two edits autosaved (1 s debounce, the last one stored)`);
  const published = await setup.publish();
  console.log(
    `  published                      state: ${setup.state}, boost task ${show(published.taskId ?? "(no id)")}, HTTP ${published.status}`,
  );
  console.log(`  ad-platform connection         ${show(published.connection)}`);

  heading("Campaign results");
  const results = unwrap(
    await client.GET("/integrations/{adplatform}/events/{eid}/campaign_results", { params: { path: { eid } } }),
  );
  console.log(table(asRows(results)));

  heading("Messages");
  console.log(`  unread partner messages: ${show(await countUnreadMessages(client))}`);
  const { signIns, refreshes } = client.sessionStats();
  console.log(`\nDone: ${signIns} sign-in, ${refreshes} refresh.`);
}
