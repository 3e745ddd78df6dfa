/**
 * The read tools: each one question an agent asks about events, answered through the client's
 * helpers where there is one (the benchmark's unit detected and normalized, Section 2).
 */
import { type AudienceClient, readBenchmark, readPrediction, unwrap } from "../index.ts";
import { campaignResultsInput, clustersInput, eidInput, listEventsInput, predictionInput } from "./schemas.ts";
import { shape, type ToolContext, type ToolSpec } from "./tool.ts";

const READ = { readOnlyHint: true, openWorldHint: true } as const;
const ANY = {};
const LIST = { type: "array" };
const PAGE = { type: ["integer", "null"] };

export function readTools(client: AudienceClient): ToolSpec<never>[] {
  const maxItems = Math.min(100, client.config.maxPageLimit);
  return [
    tool({
      name: "list_events",
      description: `One page of the partner's events (GET /events/). maxItems: page size (default 25, at most ${maxItems}); pass nextPage as page for more.`,
      input: listEventsInput(maxItems),
      output: shape({ items: LIST, page: { type: "integer" }, nextPage: PAGE }, "items", "page", "nextPage"),
      async run({ page = 1, maxItems: limit = 25, descending }, ctx) {
        const query = { page, limit, ...(descending === undefined ? {} : { descending }) };
        const body = unwrap(await client.GET("/events/", { params: { query }, signal: ctx.signal() }));
        const all = Array.isArray(body?.items) ? body.items : [];
        // A server may answer more than the page size asked for: the agent gets what it asked for.
        const items = all.slice(0, limit);
        const nextPage = all.length >= limit ? page + 1 : null;
        return {
          structured: { items, page, nextPage },
          summary: `${items.length} event(s) on page ${page}${nextPage ? `; more on page ${nextPage}` : "; the last page"}.`,
          narrow: "Ask for a smaller maxItems.",
        };
      },
    }),
    tool({
      name: "get_event",
      description: "One event by its id (GET /events/{eid}).",
      input: eidInput,
      output: shape({ event: ANY }, "event"),
      async run({ eid }, ctx) {
        const event = unwrap(await client.GET("/events/{eid}", { params: { path: { eid } }, signal: ctx.signal() }));
        return { structured: { event }, summary: `Event ${eid}.`, narrow: "Use read_api for one part of it." };
      },
    }),
    benchmarkTool(
      "read_benchmark",
      "Demand versus expected trajectory of an event (lookout_prediction_benchmark)",
      client,
      readBenchmark,
    ),
    benchmarkTool("read_prediction", "The demand prediction of an event (lookout_prediction)", client, readPrediction),
    tool({
      name: "suggest_clusters",
      description:
        "Suggested audience clusters (suggested_tcs) and the expected value of campaigns (campaigns_expected_value) of an event for a budget and goal.",
      input: clustersInput,
      output: shape({ clusters: ANY, expectedValue: ANY }, "clusters", "expectedValue"),
      async run({ eid, ...query }, ctx) {
        const params = { path: { eid }, query };
        const [clusters, expectedValue] = await Promise.all([
          client.GET("/events/{eid}/suggested_tcs", { params, signal: ctx.signal() }).then(unwrap),
          client.GET("/events/{eid}/campaigns_expected_value", { params, signal: ctx.signal() }).then(unwrap),
        ]);
        const count = Array.isArray(clusters) ? `${clusters.length} suggested cluster(s)` : "Suggested clusters";
        return {
          structured: { clusters, expectedValue },
          summary: `${count} and the expected value for event ${eid}.`,
          narrow: "Read one of the two with read_api.",
        };
      },
    }),
    tool({
      name: "campaign_results",
      description:
        "Results of an event's campaigns on the ad platform (impressions, clicks, spend). adplatform: the integration, if the server has none configured.",
      input: campaignResultsInput,
      output: shape({ results: ANY }, "results"),
      async run({ eid, adplatform }, ctx) {
        const path = { eid, ...(adplatform ? { adplatform } : {}) } as { eid: string; adplatform: string };
        const results = unwrap(
          await client.GET("/integrations/{adplatform}/events/{eid}/campaign_results", {
            params: { path },
            signal: ctx.signal(),
          }),
        );
        const count = Array.isArray(results) ? `${results.length} campaign result(s)` : "Campaign results";
        return { structured: { results }, summary: `${count} for event ${eid}.`, narrow: "Use read_api for less." };
      },
    }),
  ];
}

function benchmarkTool(
  name: string,
  what: string,
  client: AudienceClient,
  read: typeof readBenchmark,
): ToolSpec<never> {
  return tool({
    name,
    description: `${what}. fractions: its values as fractions (1 = 100 %), the unit (fraction or percent) detected; ambiguous: worth a look.`,
    input: predictionInput,
    output: shape(
      {
        unit: { enum: ["fraction", "percent"] },
        fractions: { type: "array", items: { type: "number" } },
        ambiguous: { type: "boolean" },
        body: ANY,
      },
      "unit",
      "fractions",
      "ambiguous",
    ),
    async run({ eid, type }, ctx: ToolContext) {
      const { unit, fractions, ambiguous, body } = await read(client, eid, { type, signal: ctx.signal() });
      return {
        structured: { unit, fractions, ambiguous, body },
        summary: `${fractions.length} value(s) of event ${eid}, read as ${unit}${ambiguous ? " (ambiguous: between 1.5 and 3)" : ""}.`,
        narrow: "Use read_api for the raw body.",
      };
    },
  });
}

/** A tool spec with its types checked against its input schema, then erased for the list. */
function tool<A>(spec: Omit<ToolSpec<A>, "access" | "annotations">): ToolSpec<never> {
  return { ...spec, access: "read", annotations: READ } as unknown as ToolSpec<never>;
}
