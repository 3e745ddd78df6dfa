/**
 * Quick start: the client's main job, through the public API only — sign in, choose the partner
 * from the IdToken, list events, read a benchmark with its detected unit, get suggested clusters,
 * create a draft, autosave two edits, publish, read campaign results and the unread count.
 *
 * Run it with `npm run demo` (embedded Prism mock) or
 * `AI_USERNAME=… AI_PASSWORD=… npm run demo -- --base-url https://<host>/api/v3`.
 */
import {
  type AudienceClientOptions,
  countUnreadMessages,
  createAudienceClient,
  listEvents,
  readBenchmark,
  unwrap,
} from "../src/index.ts";

/** Prints rows as an aligned table. */
export function table(rows: ReadonlyArray<Record<string, unknown>>): string {
  if (rows.length === 0) return "  (none)";
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v: unknown) => (v === undefined ? "" : typeof v === "object" ? JSON.stringify(v) : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) => `  ${values.map((v, i) => v.padEnd(widths[i] as number)).join("  ")}`.trimEnd();
  return [
    line(columns),
    line(widths.map((w) => "-".repeat(w))),
    ...rows.map((r) => line(columns.map((c) => cell(r[c])))),
  ].join("\n");
}

const heading = (title: string) => console.log(`\n${title}\n${"=".repeat(title.length)}`);
const asRows = (body: unknown): Array<Record<string, unknown>> =>
  (Array.isArray(body) ? body : body && typeof body === "object" ? [body] : []).map((r) =>
    r && typeof r === "object" ? (r as Record<string, unknown>) : { value: r },
  );

export async function quickstart(
  options: Pick<AudienceClientOptions, "baseUrl" | "mediaUrl" | "credentials" | "partnerId" | "adPlatform">,
): Promise<void> {
  const client = createAudienceClient({ ...options, adPlatform: options.adPlatform ?? "meta" });

  heading("Events (paginated)");
  const events = [];
  for await (const event of listEvents(client, { limit: 50, maxItems: 10 })) events.push(event);
  console.log(table(events.map((e) => ({ id: e.id, name: e.name, status: e.frontend_status }))));
  console.log(`\nSigned in once; partner chosen from the IdToken: ${client.partnerId()}`);
  const eid = events[0]?.id;
  if (!eid) throw new Error("No events to work with");

  heading(`Benchmark of ${eid} (capacity)`);
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
    `  published                      state: ${setup.state}, boost task ${published.taskId ?? "(no id)"}, HTTP ${published.status}`,
  );
  console.log(`  ad-platform connection         ${JSON.stringify(published.connection)}`);

  heading("Campaign results");
  const results = unwrap(
    await client.GET("/integrations/{adplatform}/events/{eid}/campaign_results", { params: { path: { eid } } }),
  );
  console.log(table(asRows(results)));

  heading("Messages");
  console.log(`  unread partner messages: ${await countUnreadMessages(client)}`);
  const { signIns, refreshes } = client.sessionStats();
  console.log(`\nDone: ${signIns} sign-in, ${refreshes} refresh.`);
}
