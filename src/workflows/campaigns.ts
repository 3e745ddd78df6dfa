/**
 * The query-string writes (Section 1.3, 4) and the polls that follow them (Section 8.5). Their
 * parameter names are not documented: they are passed through as plain `key=value` pairs, as the
 * drift overlay declares (openapi/overlays/10-drift.overlay.yaml, QueryStringParams).
 */

import type { AudienceClient } from "../client-types.ts";
import { ValidationError } from "../errors/validation-error.ts";
import { pathParamIssues } from "../guards/path-params.ts";
import { withSignal } from "../internal/with-signal.ts";
import { unwrap } from "../unwrap.ts";
import { type CallOptions, helperCall, helperWork, objectOptions } from "./call-options.ts";
import { deadlineAt } from "./deadline.ts";
import { isTerminalStatus, poll, pollDefaults } from "./poll.ts";
import { pollCall, pollRetryDelayMs } from "./poll-call.ts";

/** @inline */
type Client = Pick<AudienceClient, "GET" | "POST" | "PUT" | "config">;
/** @inline */
type TaskClient = Client & Pick<AudienceClient, "hasSentClientCampaignStatus">;

/** A poll's retries: its own schedule, as many failed fetches in a row as the client's attempts (Section 8.2, 8.5). */
const pollRetries = (client: Client) => ({
  retryDelayMs: pollRetryDelayMs,
  maxFailures: client.config.retry.maxAttempts,
});
/** Free-form query-string parameters: values are strings, numbers, booleans or arrays of them. */
export type QueryParams = Record<string, string | number | boolean | ReadonlyArray<string | number | boolean>>;

/** POST /campaigns/ — not idempotent and never repeated once sent (Section 3 rule 3). */
export async function createCampaign(
  client: Client,
  params: QueryParams,
  options?: AbortSignal | CallOptions,
): Promise<unknown> {
  return helperCall(client, options, (init) =>
    client.POST("/campaigns/", { params: { query: { params: params as never } }, ...init }),
  );
}

/** PUT /events/{eid}/client_campaign_status — the user's pause/run toggle of the event's campaigns. */
export async function setClientCampaignStatus(
  client: Client,
  eid: string,
  params: QueryParams,
  options?: AbortSignal | CallOptions,
): Promise<unknown> {
  return helperCall(client, options, (init) =>
    client.PUT("/events/{eid}/client_campaign_status", {
      params: { path: { eid }, query: { params: params as never } },
      ...init,
    }),
  );
}

/** Options of the waiting helpers ({@link waitForClientCampaignStatusTask}, {@link watchAdPlatformConnection}). */
export interface WaitOptions {
  /** States that end the poll (case-insensitive), read from `status` or `state`. @default DEFAULT_TERMINAL_STATES */
  terminalStates?: readonly string[];
  /** Give up after this long (TimeoutError). */
  timeoutMs?: number;
  /**
   * One deadline across every fetch and wait of the poll: a wait that would end after it fails at
   * once with a TimeoutError carrying `retryAt`.
   */
  deadlineMs?: number;
  /** `"low"` polls in the partner's background lane (interactive calls go first). */
  priority?: "high" | "low" | "auto";
  /** Aborting stops the wait. */
  signal?: AbortSignal;
}

/**
 * Polls the task of the last client_campaign_status PUT until it is terminal: about every 2 s,
 * backing off (Section 8.5: "task polls use about 2 s with backoff and retry only after a PUT").
 * The task belongs to that PUT: an eid for which this client has sent none is refused with a
 * ValidationError, nothing sent. A failed fetch is retried on the poll's schedule, not sooner.
 */
export function waitForClientCampaignStatusTask(
  client: TaskClient,
  eid: string,
  options: WaitOptions = {},
): Promise<unknown> {
  return helperWork(client, () => taskPoll(client, eid, objectOptions(options)));
}

function taskPoll(client: TaskClient, eid: string, options: WaitOptions): Promise<unknown> {
  const at = deadlineAt(options.deadlineMs);
  return poll({
    ...pollDefaults.task,
    ...pollRetries(client),
    fetchStatus: async (signal) => {
      // An invalid eid is reported as such by the call's own validation below.
      if (pathParamIssues({ eid }, ["eid"]).length === 0 && !client.hasSentClientCampaignStatus(eid)) {
        throw new ValidationError(
          [
            {
              field: "eid",
              message: `no PUT /events/{eid}/client_campaign_status was sent for ${JSON.stringify(eid)} by this client: a task poll follows that PUT (Section 8.5); call setClientCampaignStatus first`,
            },
          ],
          {
            method: "GET",
            path: "/events/{eid}/client_campaign_status/task",
            expected: "a task started by this client; nothing was sent",
          },
        );
      }
      return unwrap(
        await client.GET("/events/{eid}/client_campaign_status/task", {
          params: { path: { eid } },
          ...withSignal(signal),
          ...pollCall(at),
          ...(options.priority ? { priority: options.priority } : {}),
        }),
      );
    },
    isDone: isTerminalStatus(options.terminalStates),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs }),
    ...withSignal(options.signal),
  });
}

/**
 * Polls the ad-platform connection status until `isDone`, never more often than every 3 s
 * (Section 8.5), retries included: a failed fetch is retried after the next 3 s wait, never by the
 * transport. A faster `intervalMs` is raised to 3 s.
 */
export function watchAdPlatformConnection(
  client: Client,
  options: WaitOptions & { adPlatform?: string; intervalMs?: number; isDone?: (body: unknown) => boolean } = {},
): Promise<unknown> {
  return helperWork(client, () => connectionPoll(client, objectOptions(options)));
}

function connectionPoll(
  client: Client,
  options: WaitOptions & { adPlatform?: string; intervalMs?: number; isDone?: (body: unknown) => boolean },
): Promise<unknown> {
  const adplatform = options.adPlatform ?? client.config.adPlatform;
  const at = deadlineAt(options.deadlineMs);
  return poll({
    ...pollDefaults.status,
    ...pollRetries(client),
    ...(options.intervalMs === undefined ? {} : { intervalMs: options.intervalMs }),
    fetchStatus: async (signal) =>
      unwrap(
        await client.GET("/integrations/connect/{adplatform}/status", {
          params: { path: adplatform ? { adplatform } : {} },
          ...withSignal(signal),
          ...pollCall(at),
          ...(options.priority ? { priority: options.priority } : {}),
        }),
      ),
    isDone: options.isDone ?? isTerminalStatus(options.terminalStates),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs }),
    ...withSignal(options.signal),
  });
}

/** POST /events/{eid}/series — not idempotent, never repeated once sent. */
export async function createEventSeries(
  client: Client,
  eid: string,
  params: QueryParams,
  options?: AbortSignal | CallOptions,
): Promise<unknown> {
  return helperCall(client, options, (init) =>
    client.POST("/events/{eid}/series", {
      params: { path: { eid }, query: { params: params as never } },
      ...init,
    }),
  );
}

/** GET /events/{eid}/available_events_for_series. */
export async function listAvailableEventsForSeries(
  client: Client,
  eid: string,
  options?: AbortSignal | CallOptions,
): Promise<unknown> {
  return helperCall(client, options, (init) =>
    client.GET("/events/{eid}/available_events_for_series", {
      params: { path: { eid } },
      ...init,
    }),
  );
}

/** @inline */
type Toggle = "campaign" | "ad_campaign";
const togglePath = {
  campaign: "/events/{eid}/campaign_optimisation_status",
  ad_campaign: "/events/{eid}/ad_campaign_optimisation_status",
} as const;

// Any other `which` (from JavaScript) used to reach openapi-fetch as an undefined path, a
// TypeError about URL parsing; it is the caller's input, so it is refused as such.
function toggle(which: Toggle): (typeof togglePath)[Toggle] {
  if (which !== "campaign" && which !== "ad_campaign")
    throw new ValidationError([{ field: "which", message: 'must be "campaign" or "ad_campaign"' }]);
  return togglePath[which];
}

/** Reads an optimisation toggle (method assumed GET; see the drift overlay). */
export async function getOptimisationStatus(
  client: Client,
  eid: string,
  which: Toggle,
  options?: AbortSignal | CallOptions,
): Promise<unknown> {
  return helperCall(client, options, (init) => client.GET(toggle(which), { params: { path: { eid } }, ...init }));
}

/** Sets an optimisation toggle with query-string parameters (method assumed PUT; see the drift overlay). */
export async function setOptimisationStatus(
  client: Client,
  eid: string,
  which: Toggle,
  params: QueryParams,
  options?: AbortSignal | CallOptions,
): Promise<unknown> {
  return helperCall(client, options, (init) =>
    client.PUT(toggle(which), {
      params: { path: { eid }, query: { params: params as never } },
      ...init,
    }),
  );
}
