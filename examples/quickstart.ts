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
} from "@audience-intelligence/client";

/**
 * Where the quick start's output goes. Server text (event names, ids, bodies) reaches a terminal or
 * a page only through `show` and `table`, which must escape it: the demo's printer
 * (scripts/demo-print.ts) does, for a terminal.
 */
export interface Printer {
  heading(title: string): void;
  /** Rows of server data, as a table. */
  table(rows: ReadonlyArray<Record<string, unknown>>): void;
  /** One value as a short line, escaped. */
  show(value: unknown): string;
  /** A line of the quick start's own text (server text in it has been through `show`). */
  line(text: string): void;
}

const asRows = (body: unknown): Array<Record<string, unknown>> =>
  (Array.isArray(body) ? body : body && typeof body === "object" ? [body] : []).map((r) =>
    r && typeof r === "object" ? (r as Record<string, unknown>) : { value: r },
  );

/** Runs the quick start; `watch` is handed the client it made (the demo reads its rate state). */
export async function quickstart(
  options: Pick<AudienceClientOptions, "baseUrl" | "mediaUrl" | "credentials" | "partnerId" | "adPlatform" | "logger">,
  print: Printer,
  watch?: (client: AudienceClient) => void,
): Promise<void> {
  const { show } = print;
  const client = createAudienceClient({ ...options, adPlatform: options.adPlatform ?? "meta" });
  watch?.(client);

  print.heading("Events (paginated)");
  const events = [];
  for await (const event of listEvents(client, { limit: 50, maxItems: 10 })) events.push(event);
  print.table(events.map((e) => ({ id: e.id, name: e.name, status: e.frontend_status })));
  print.line(`\nSigned in once; partner chosen from the IdToken: ${show(client.partnerId())}`);
  const eid = events[0]?.id;
  if (!eid) throw new Error("No events to work with");

  print.heading(`Benchmark of ${show(eid)} (capacity)`);
  const benchmark = await readBenchmark(client, eid, { type: "capacity" });
  print.table(benchmark.values.map((raw, i) => ({ "#": i + 1, raw, fraction: benchmark.fractions[i]?.toFixed(3) })));
  print.line(
    `\nDetected unit: ${benchmark.unit}${benchmark.ambiguous ? " (ambiguous: values between 1.5 and 3)" : ""}`,
  );

  print.heading("Suggested taste clusters for 1 500, goal UTILIZATION");
  const suggested = unwrap(
    await client.GET("/events/{eid}/suggested_tcs", {
      params: { path: { eid }, query: { budget: 1500, goal: "UTILIZATION" } },
    }),
  );
  print.table(asRows(suggested));

  print.heading("Campaign setup");
  const setup = client.setupProcess(eid);
  const draft = {
    goal: "UTILIZATION" as const,
    total_budget: 1500,
    start_date: "2027-05-01",
    end_date: "2027-05-31",
    tc_run_id: 42,
  };
  await setup.create(draft);
  print.line(`  draft created                  state: ${setup.state}`);
  void setup.autosave({ ...draft, total_budget: 1800 });
  void setup.autosave({ ...draft, total_budget: 2000, end_date: "2027-06-07" });
  await setup.flush();
  print.line(`  two edits autosaved (1 s debounce, the last one stored)`);
  const published = await setup.publish();
  print.line(
    `  published                      state: ${setup.state}, boost task ${show(published.taskId ?? "(no id)")}, HTTP ${published.status}`,
  );
  print.line(`  ad-platform connection         ${show(published.connection)}`);

  print.heading("Campaign results");
  const results = unwrap(
    await client.GET("/integrations/{adplatform}/events/{eid}/campaign_results", { params: { path: { eid } } }),
  );
  print.table(asRows(results));

  print.heading("Messages");
  print.line(`  unread partner messages: ${show(await countUnreadMessages(client))}`);
  const { signIns, refreshes } = client.sessionStats();
  print.line(`\nDone: ${signIns} sign-in, ${refreshes} refresh.`);
}
