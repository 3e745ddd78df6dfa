import { boostTaskIdOf } from "../assumptions.ts";
import type { AudienceClient } from "../client-types.ts";
import type { Declared } from "../declared-fields.ts";
import { refusedIn } from "../errors/refused-in.ts";
import { SetupStateError } from "../errors/setup-state-error.ts";
import { ValidationError } from "../errors/validation-error.ts";
import { throwIfAborted } from "../internal/abort-signal.ts";
import { monotonicNow } from "../internal/clock.ts";
import { unwrap } from "../unwrap.ts";
import { type Autosaver, createAutosaver } from "./autosave.ts";
import { callInit, objectOptions } from "./call-options.ts";
import { deadlineAt, withDeadline } from "./deadline.ts";
import type { PublishedClusterEdit, PublishResult, SetupPayload, SetupProcess } from "./setup-process-types.ts";

/** A failed edit stays pending for the next save, unless it was refused before sending: it would be refused again. */
const keepFailed = (error: unknown): boolean => !(error instanceof ValidationError || error instanceof SetupStateError);

/** What a setup handle does, without its eid and state. */
export type SetupWork = Omit<SetupProcess, "eid" | "state">;

/**
 * The work of `eid`'s handle (setup-handle.ts holds its eid and state): the queue of the draft's
 * edits, one queue per published cluster, and the calls of the setup's life. `onBusy` is told
 * when the work starts and stops having edits to save.
 */
export function createSetupWork(
  client: AudienceClient,
  eid: string,
  debounceMs?: number,
  onBusy?: (busy: boolean) => void,
): SetupWork {
  const path = { eid };
  // Busy while any of its queues has work: the client keeps a busy handle (its queue must stay the
  // one its eid finds) and lets an idle one go once the caller drops it.
  let busySavers = 0;
  const onPending = (pending: boolean): void => {
    busySavers += pending ? 1 : -1;
    if (busySavers === (pending ? 1 : 0)) onBusy?.(pending);
  };
  const timing = debounceMs === undefined ? {} : { debounceMs };
  // One queue for every edit of the draft: autosave, update and flush (Section 3: edits must not
  // overlap, or they land out of order).
  const autosaver = createAutosaver<SetupPayload>({
    save: (payload) => putDraft(client, eid, payload),
    keepFailed,
    onPending,
    ...timing,
  });
  // One queue per published cluster, keyed by (tc, tc_run_id) under this eid (Section 3, 8.5).
  const clusterSavers = new Map<string, Autosaver<PublishedClusterEdit>>();
  const clusterSaver = (edit: PublishedClusterEdit): Autosaver<PublishedClusterEdit> => {
    const key = JSON.stringify([edit?.tc, edit?.tc_run_id]);
    let saver = clusterSavers.get(key);
    if (!saver) {
      saver = createAutosaver<PublishedClusterEdit>({
        save: async (payload) => unwrap(await client.POST("/campaigns_setup", { body: { ...payload, eid } })),
        keepFailed,
        onPending,
        ...timing,
      });
      clusterSavers.set(key, saver);
    }
    return saver;
  };

  // The fields a partner declared for the setup (DeclaredFields) are theirs to rely on: taken as declared.
  type Setup = Declared<"setup">;
  const work: SetupWork = {
    async load(options) {
      const result = await client.GET("/setup_processes/{eid}", { params: { path }, ...callInit(options) });
      return result.response.status === 404 ? undefined : (unwrap(result) as Setup);
    },
    async create(payload, options) {
      return unwrap(
        await client.POST("/setup_processes/{eid}", { params: { path }, body: payload, ...callInit(options) }),
      ) as Setup;
    },
    update: async (payload) => (await autosaver.saveNow(payload)) as Setup,
    autosave: (payload) => autosaver.autosave(payload),
    async flush(options) {
      const checked = objectOptions(options);
      const all = [autosaver, ...clusterSavers.values()].map((saver) => saver.flush(checked));
      for (const result of await Promise.allSettled(all)) if (result.status === "rejected") throw result.reason;
    },
    publish: async (options) => publish(client, eid, autosaver, objectOptions(options)),
    async cancel(options) {
      return unwrap(await client.DELETE("/setup_processes/{eid}", { params: { path }, ...callInit(options) }));
    },
    editPublishedCluster: (payload) => clusterSaver(payload).saveNow(payload),
    autosavePublishedCluster: (payload) => clusterSaver(payload).autosave(payload),
  };
  // What a method refuses before sending (its options) names the client's partner and environment (Section 7).
  for (const [name, method] of Object.entries(work) as Array<[string, (...a: unknown[]) => Promise<unknown>]>)
    (work as unknown as Record<string, unknown>)[name] = (...a: unknown[]) => refusedIn(client, () => method(...a));
  return work;
}

/**
 * PUT of the whole draft. A refusal because the setup is published is a SetupStateError, and the
 * setup is known to be published (the setup guards judge it, errors/from-response.ts builds it).
 */
async function putDraft(client: AudienceClient, eid: string, payload: SetupPayload): Promise<unknown> {
  return unwrap(await client.PUT("/setup_processes/{eid}", { params: { path: { eid } }, body: payload }));
}

/** Flushes the draft's edits, publishes (boost), then reads the ad-platform connection status. */
async function publish(
  client: AudienceClient,
  eid: string,
  autosaver: Autosaver<SetupPayload>,
  options: Parameters<SetupProcess["publish"]>[0] & object,
): Promise<PublishResult> {
  const { deadlineMs, ...rest } = options;
  const at = deadlineAt(deadlineMs); // one deadline for the flush, the boost and the status read
  const init = { ...callInit(rest), ...withDeadline(at) };
  await autosaver.flush(at === undefined ? {} : { deadlineMs: Math.max(0, at - monotonicNow()) });
  throwIfAborted(options.signal);
  const result = await client.POST("/setup_processes/{eid}/boost", { params: { path: { eid } }, ...init });
  const data = unwrap(result);
  const adPlatform = options.adPlatform ?? client.config.adPlatform;
  let connection: unknown;
  if (adPlatform) {
    connection = unwrap(
      await client.GET("/integrations/connect/{adplatform}/status", {
        params: { path: { adplatform: adPlatform } },
        ...init,
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
}
