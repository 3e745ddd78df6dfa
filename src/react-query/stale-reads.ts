/**
 * Which reads each write makes stale: one declared map over every write operation of the
 * description (a test derives the writes from generated/operations.ts and fails on a missing
 * entry). `useMutation` and `useSetupDraft().publish()` refresh these reads on success.
 *
 * A read with `{eid}` in its path is refreshed for the write's event only when the write names
 * one (its path, its `eid` query parameter, or its body's `eid`); otherwise for every event of the
 * partner. Reads of another partner are never touched: they are keyed by their partner.
 */

/** `"<method> <path>"`, method lower-case as openapi-react-query has it. */
export type WriteKey = `${"post" | "put" | "delete" | "patch"} ${string}`;

/** The GET paths that show what an ingest changes (Section 2: tickets feed the predictions). */
const INGESTED = [
  "/events/{eid}/tickets",
  "/events/{eid}/lookout_prediction",
  "/events/{eid}/lookout_prediction_benchmark",
  "/events/{eid}/statistics",
] as const;

/** `map` and each of its lists frozen: an app's `sort()` or `push()` on one would change every client's refresh. */
function frozen<T extends Record<string, readonly string[]>>(map: T): Readonly<T> {
  for (const list of Object.values(map)) Object.freeze(list);
  return Object.freeze(map);
}

/** The map. An empty list is a decision: the write changes nothing a read shows. */
export const STALE_READS: Readonly<Record<WriteKey, readonly string[]>> = frozen({
  // Section 5: sign-in and refresh mint tokens; no read shows them.
  "post /auth": [],
  "post /auth/refresh_token": [],
  // Section 3: the draft's life cycle.
  "post /setup_processes/{eid}": ["/setup_processes/{eid}"],
  "put /setup_processes/{eid}": ["/setup_processes/{eid}"],
  "delete /setup_processes/{eid}": ["/setup_processes/{eid}"],
  // Publishing creates the event's campaigns and changes the event's status (Section 2 frontend_status).
  "post /setup_processes/{eid}/boost": ["/setup_processes/{eid}", "/events/{eid}/campaigns", "/events/{eid}"],
  // An edit of one published cluster (the body carries the eid).
  "post /campaigns_setup": ["/setup_processes/{eid}", "/events/{eid}/campaigns"],
  // Section 4's query-string writes.
  "post /campaigns/": ["/events/{eid}/campaigns", "/events/"],
  "put /events/{eid}/client_campaign_status": [
    "/events/{eid}",
    "/events/{eid}/client_campaign_status/task",
    "/events/{eid}/campaigns",
  ],
  "put /events/{eid}/campaign_optimisation_status": ["/events/{eid}/campaign_optimisation_status", "/events/{eid}"],
  "put /events/{eid}/ad_campaign_optimisation_status": [
    "/events/{eid}/ad_campaign_optimisation_status",
    "/events/{eid}",
  ],
  "post /events/{eid}/series": ["/events/", "/events/{eid}", "/events/{eid}/available_events_for_series"],
  // Ingest (body or query eid): the event's tickets and what is predicted from them.
  "post /ingest/transaction_summary": INGESTED,
  "post /ingest/transaction_summary/from_excel": INGESTED,
  // A media upload returns its own result; no read lists media.
  "post /media": [],
});

/** The event a write names: path parameter, `eid` query parameter, or body `eid`. */
export function eidOfWrite(init: unknown): string | undefined {
  const { params, body } = (init ?? {}) as {
    params?: { path?: { eid?: unknown }; query?: { eid?: unknown } };
    body?: unknown;
  };
  const found = params?.path?.eid ?? params?.query?.eid ?? (body as { eid?: unknown } | undefined)?.eid;
  return eidText(found);
}

/**
 * An eid as it is sent: a number in a path or a query goes out as its text (Section 1.3), so
 * `123` and `"123"` name one event. Anything else names none.
 */
export function eidText(value: unknown): string | undefined {
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : undefined;
}

/** The key prefixes to invalidate after `write` succeeded with `init` (below the partner part). */
export function staleKeysOf(write: WriteKey, init: unknown): ReadonlyArray<readonly [string, string, ...object[]]> {
  const eid = eidOfWrite(init);
  return (STALE_READS[write] ?? []).map((read) =>
    eid !== undefined && read.includes("{eid}")
      ? (["get", read, { path: { eid } }] as const)
      : (["get", read] as const),
  );
}
