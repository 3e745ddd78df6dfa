/** Event reads: the paginated list, predictions and benchmarks with their detected unit. */

import type { components } from "../../generated/schema.ts";
import type { AudienceClient } from "../client-types.ts";
import type { Declared } from "../declared-fields.ts";
import { withSignal } from "../internal/with-signal.ts";
import { unwrap } from "../unwrap.ts";
import { benchmarkValuesOf, type NormalizedBenchmark, normalizeBenchmark } from "./benchmark.ts";
import { helperWork } from "./call-options.ts";
import { type ListOptions, pagedList } from "./list.ts";

/** @inline */
type Client = Pick<AudienceClient, "GET" | "config">;
/** One event as GET /events/ lists it (`components["schemas"]["Event"]`). */
export type Event = components["schemas"]["Event"] & Declared<"event">;
/** The `type` query parameter of the prediction reads. */
export type PredictionType = "capacity" | "ticket_count";

/**
 * Every event, page by page (Section 2: `page`, `limit`), holding one page in memory.
 *
 * @example
 * for await (const event of listEvents(client, { descending: true, maxItems: 20 })) console.log(event.id);
 */
export function listEvents(
  client: Client,
  options: ListOptions & { descending?: boolean } = {},
): AsyncIterableIterator<Event> {
  const descending = options.descending === undefined ? {} : { descending: options.descending };
  return pagedList<Event>(
    client,
    options,
    async ({ page, limit, ...call }) =>
      unwrap(await client.GET("/events/", { params: { query: { page, limit, ...descending } }, ...call })),
    // The fields a partner declared (DeclaredFields) are theirs to rely on: taken as declared.
    { itemsOf: (body) => ((body as components["schemas"]["EventList"]).items ?? []) as Event[] },
  );
}

/** A prediction or benchmark body, with the benchmark values found in it normalized to fractions. */
export interface BenchmarkRead<Body = unknown> extends NormalizedBenchmark {
  /** The body as the API returned it (its fields are not documented). */
  readonly body: Body;
  /** The raw values found under the client's `benchmarkFields`. */
  readonly values: ReadonlyArray<number | string>;
}

function read<Body>(path: "/events/{eid}/lookout_prediction_benchmark" | "/events/{eid}/lookout_prediction") {
  return async (
    client: Client,
    eid: string,
    options: { type: PredictionType; unit?: "fraction" | "percent"; signal?: AbortSignal },
  ): Promise<BenchmarkRead<Body>> =>
    helperWork(client, async () => {
      // Checked before sending: missing options reach the query check (query.type), and a wrong
      // unit fails here rather than after a call that was made for nothing.
      const { type, unit, signal } = options ?? ({} as Partial<typeof options>);
      if (unit !== undefined) normalizeBenchmark([], { unit });
      const body = unwrap(
        await client.GET(path, {
          params: { path: { eid }, query: { type: type as PredictionType } },
          ...withSignal(signal),
        }),
      );
      const values = benchmarkValuesOf(body, client.config.benchmarkFields);
      return { body: body as Body, values, ...normalizeBenchmark(values, unit ? { unit } : {}) };
    });
}

/**
 * Demand versus expected trajectory (Section 2: "a fraction or a percent; the client must
 * auto-detect which"), normalized to fractions.
 *
 * @example
 * const { unit, fractions, ambiguous } = await readBenchmark(client, "evt-1", { type: "capacity" });
 */
export const readBenchmark = read<Declared<"benchmark">>("/events/{eid}/lookout_prediction_benchmark");

/** The demand prediction of an event, with any benchmark values in it normalized likewise. */
export const readPrediction = read<Declared<"prediction">>("/events/{eid}/lookout_prediction");

/**
 * The campaigns of an event. The endpoint takes only `limit` (no page): one page is read.
 */
export function listEventCampaigns(
  client: Client,
  eid: string,
  options: ListOptions = {},
): AsyncIterableIterator<Declared<"campaign">> {
  return pagedList<Declared<"campaign">>(
    client,
    options,
    async ({ limit, page: _page, ...call }) =>
      unwrap(await client.GET("/events/{eid}/campaigns", { params: { path: { eid }, query: { limit } }, ...call })),
    { single: true },
  );
}
