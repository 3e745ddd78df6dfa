/**
 * `client.setupProcess(eid)`: the draft/publish life cycle of Section 3 as one handle per event —
 * load, create, update, debounced ordered autosave, publish with the ad-platform check, cancel,
 * and edits of a published cluster.
 */
import type { components } from "../../generated/schema.ts";
import { boostTaskIdOf } from "../assumptions.ts";
import type { AudienceClient } from "../create-client.ts";
import { ApiError } from "../errors/api-error.ts";
import { type SetupState, SetupStateError } from "../errors/setup-state-error.ts";
import { unwrap } from "../unwrap.ts";
import { createAutosaver } from "./autosave.ts";
import type { SetupStates } from "./setup-state.ts";

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
  load(): Promise<unknown>;
  /** Begins a setup (POST, not idempotent: an ambiguous failure is checked, never blindly repeated). */
  create(payload: SetupPayload): Promise<unknown>;
  /** Saves the draft now (PUT). Refused with SetupStateError once the setup is known to be published. */
  update(payload: SetupPayload): Promise<unknown>;
  /** Debounced (1 s), ordered autosave: the stored draft always ends as the last edit. */
  autosave(payload: SetupPayload): Promise<void>;
  /** Resolves once the last edit is stored; rejects if storing it failed (the edit stays pending). */
  flush(): Promise<void>;
  /** Flushes pending edits, publishes (boost) and reads the ad-platform connection status. */
  publish(options?: { adPlatform?: string }): Promise<PublishResult>;
  /** Cancels the draft. */
  cancel(): Promise<unknown>;
  /** Edits one cluster of the published setup (POST /campaigns_setup). */
  editPublishedCluster(payload: PublishedClusterEdit): Promise<unknown>;
}

// Section 7: "PUT on draft endpoint after publish: rejected (code not given)" — these are the
// statuses a rejection of that kind plausibly takes; see assumptions in README.
const PUT_REJECTED = new Set([400, 405, 409, 412, 422]);

export function createSetupProcess(
  client: AudienceClient,
  states: SetupStates,
  eid: string,
  debounceMs?: number,
): SetupProcess {
  const path = { eid };
  const update = async (payload: SetupPayload): Promise<unknown> => {
    const result = await client.PUT("/setup_processes/{eid}", { params: { path }, body: payload });
    if (result.response.ok) return result.data;
    try {
      return unwrap(result);
    } catch (error) {
      if (error instanceof ApiError && PUT_REJECTED.has(error.status)) {
        throw new SetupStateError(
          `PUT /setup_processes/${eid} was rejected (HTTP ${error.status}); the draft endpoint works only while the setup is unpublished — edits of a published setup use POST /campaigns_setup (Section 3)`,
          {
            eid,
            state: states.get(eid),
            status: error.status,
            requestId: error.requestId,
            method: "PUT",
            path: "/setup_processes/{eid}",
            partnerId: error.partnerId,
            environment: error.environment,
            request: error.request,
            cause: error,
          },
        );
      }
      throw error;
    }
  };
  const autosaver = createAutosaver<SetupPayload>({
    save: update,
    ...(debounceMs === undefined ? {} : { debounceMs }),
  });

  return {
    eid,
    get state() {
      return states.get(eid);
    },
    async load() {
      const result = await client.GET("/setup_processes/{eid}", { params: { path } });
      return result.response.status === 404 ? undefined : unwrap(result);
    },
    async create(payload) {
      return unwrap(await client.POST("/setup_processes/{eid}", { params: { path }, body: payload }));
    },
    update,
    autosave: (payload) => autosaver.autosave(payload),
    flush: () => autosaver.flush(),
    async publish(options = {}) {
      await autosaver.flush();
      const result = await client.POST("/setup_processes/{eid}/boost", { params: { path } });
      const data = unwrap(result);
      const adPlatform = options.adPlatform ?? client.config.adPlatform;
      let connection: unknown;
      if (adPlatform) {
        connection = unwrap(
          await client.GET("/integrations/connect/{adplatform}/status", {
            params: { path: { adplatform: adPlatform } },
          }),
        );
      }
      return {
        taskId: boostTaskIdOf(data),
        status: result.response.status,
        requestId: result.response.headers.get("x-request-id") ?? undefined,
        connection,
        connectionChecked: adPlatform !== undefined,
      };
    },
    async cancel() {
      return unwrap(await client.DELETE("/setup_processes/{eid}", { params: { path } }));
    },
    async editPublishedCluster(payload) {
      return unwrap(await client.POST("/campaigns_setup", { body: { ...payload, eid } }));
    },
  };
}
