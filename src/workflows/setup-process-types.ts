/**
 * The types of a setup process handle (Section 3), apart from its implementation, so that the
 * client's types (client-types.ts) can name the handle without depending on the workflow.
 */

import type { components } from "../../generated/schema.ts";
import type { Declared } from "../declared-fields.ts";
import type { SetupState } from "../errors/setup-state-error.ts";
import type { CallOptions } from "./call-options.ts";

/** Body of a setup-process create or update (`components["schemas"]["SetupPayload"]`). */
export type SetupPayload = components["schemas"]["SetupPayload"];
/** Body of POST /campaigns_setup (`components["schemas"]["EditPublishedClusterPayload"]`). */
export type EditPublishedClusterPayload = components["schemas"]["EditPublishedClusterPayload"];
/** An edit of one published cluster: the payload of POST /campaigns_setup without `eid`. */
export type PublishedClusterEdit = Pick<EditPublishedClusterPayload, "tc" | "tc_run_id"> &
  Partial<Pick<EditPublishedClusterPayload, "audience_id" | "creatives" | "targeting">>;

/** What publishing returned, and what the API could tell about the ad platform afterwards. */
export interface PublishResult {
  /** The boost task id (field not documented; see assumptions). */
  readonly taskId: string | undefined;
  /** 201 expected, 200 accepted (Section 3). */
  readonly status: number;
  /** The `x-request-id` of the boost response. */
  readonly requestId: string | undefined;
  /**
   * Body of GET /integrations/connect/{adplatform}/status after the boost, since a 2xx does not
   * prove the campaigns exist on the ad platform. Undefined when no `adPlatform` is known.
   */
  readonly connection: unknown;
  /** Whether the connection status was read after the boost. */
  readonly connectionChecked: boolean;
}

/** The handle `client.setupProcess(eid)` returns: one per event, shared by every caller. */
export interface SetupProcess {
  /** The event this setup process belongs to. */
  readonly eid: string;
  /** What this client has observed: unknown, none, draft or published. */
  readonly state: SetupState;
  /** Reads the draft; undefined when none exists (404). */
  load(options?: CallOptions): Promise<Declared<"setup"> | undefined>;
  /** Begins a setup (POST, not idempotent: an ambiguous failure is checked, never blindly repeated). */
  create(payload: SetupPayload, options?: CallOptions): Promise<Declared<"setup">>;
  /**
   * Saves the draft now (PUT), in the same ordered queue as `autosave`: after the PUT in flight,
   * never overlapping it, superseding edits not yet sent. Resolves with the stored draft. Refused
   * with SetupStateError, nothing sent, when the setup is known to be absent or published.
   */
  update(payload: SetupPayload): Promise<Declared<"setup">>;
  /** Debounced (1 s), ordered autosave: the stored draft always ends as the last edit, `update`s included. */
  autosave(payload: SetupPayload): Promise<void>;
  /**
   * Resolves once the last edit (of the draft and of each published cluster) is stored; rejects if
   * storing one failed. With `deadlineMs`, rejects with a TimeoutError once it passes (the saves go
   * on; the edits stay pending until stored).
   */
  flush(options?: { deadlineMs?: number }): Promise<void>;
  /**
   * Flushes pending edits, publishes (boost) and reads the ad-platform connection status. `signal`,
   * `deadlineMs` and `priority` hold for the whole sequence (the deadline counts from this call).
   */
  publish(options?: { adPlatform?: string } & CallOptions): Promise<PublishResult>;
  /** Cancels the draft. */
  cancel(options?: CallOptions): Promise<unknown>;
  /**
   * Edits one cluster of the published setup now (POST /campaigns_setup), ordered per
   * (eid, tc, tc_run_id) like the draft's edits: never two POSTs of one cluster in flight, and the
   * last edit asked for is the one stored.
   */
  editPublishedCluster(payload: PublishedClusterEdit): Promise<unknown>;
  /** Debounced (1 s, Section 8.5), ordered autosave of one published cluster's edits. */
  autosavePublishedCluster(payload: PublishedClusterEdit): Promise<void>;
}
