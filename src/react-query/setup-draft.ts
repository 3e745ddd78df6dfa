/**
 * `useSetupDraft(eid)`: the campaign wizard's draft (Section 3) over the client's setup handle,
 * which already debounces autosaves 1 s, keeps one PUT in flight and stores the newest edit
 * (workflows/autosave.ts). This hook adds the draft as loaded, the one working draft every
 * component of it edits (draft-store.ts), and the state to show.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useSyncExternalStore } from "react";
import type { AudienceClient } from "../client-types.ts";
import type { AudienceError } from "../errors/audience-error.ts";
import type { PublishResult, SetupPayload } from "../workflows/setup-process-types.ts";
import { type DraftState, draftStoreOf } from "./draft-store.ts";
import { invalidateStale } from "./invalidate.ts";
import { queryKeyOf } from "./query-key.ts";
import { ONE_LAYER_RETRIES } from "./query-options.ts";
import { type Binding, readFnOf, readIdOf, tenantFor } from "./read.ts";

export type { DraftState } from "./draft-store.ts";

/** What `useSetupDraft(eid)` returns. */
export interface SetupDraft {
  /**
   * The working draft (the same for every component of this draft on this client), else as loaded
   * (`null`: no draft exists, a 404), `undefined` while loading.
   */
  readonly draft: SetupPayload | null | undefined;
  /** What to show: idle, saving, saved (the server holds the last edit), failed or published. */
  readonly state: DraftState;
  /** Why the last save or publish failed (`SetupStateError` once the setup is published). */
  readonly error: AudienceError | undefined;
  /** Merges `partial` into the working draft and autosaves it: debounced 1 s, ordered, the newest edit stored. */
  edit(partial: Partial<SetupPayload>): void;
  /**
   * Stores the pending edits, then publishes (POST …/boost), guarded as `setupProcess` guards it
   * (refused with `SetupStateError` once published); refreshes the reads the publish made stale.
   */
  publish(options?: Parameters<ReturnType<AudienceClient["setupProcess"]>["publish"]>[0]): Promise<PublishResult>;
}

/** Builds `useSetupDraft` of one client. */
export function setupDraftFor(binding: Binding): (eid: string) => SetupDraft {
  return (eid) => useSetupDraft(binding, eid);
}

/** The hook itself, at module level (one identity for every client). */
function useSetupDraft(binding: Binding, eid: string): SetupDraft {
  const { client } = binding;
  const cache = useQueryClient();
  const handle = client.setupProcess(eid); // one handle per eid: the same ordered queue for every caller
  const init = { params: { path: { eid } } };
  // Its own key below the plain read's: a 404 is `null` here, a NotFoundError there.
  const id = readIdOf("get", "/setup_processes/{eid}", init, "draft");
  const load = (signal?: AbortSignal) =>
    handle.load(signal ? { signal } : {}).then((draft) => (draft ?? null) as SetupPayload | null);
  const tenant = tenantFor(binding, id, () => load());
  const loaded = useQuery({
    queryKey: queryKeyOf(tenant, "get", "/setup_processes/{eid}", init, "draft"),
    queryFn: readFnOf(binding, tenant, id, ({ signal }: { signal?: AbortSignal }) =>
      load(signal),
    ) as () => Promise<SetupPayload | null>,
    ...ONE_LAYER_RETRIES,
  });
  const store = draftStoreOf(client, tenant, eid);
  const { edited, state, error } = useSyncExternalStore(store.subscribe, store.snapshot, store.snapshot);
  // Read at the call, not at the last render: keystrokes may come faster than renders.
  const stored = useRef<SetupPayload | null | undefined>(undefined);
  stored.current = loaded.data;

  const edit = useCallback((partial: Partial<SetupPayload>) => store.edit(partial, stored.current), [store]);
  const publish = useCallback<SetupDraft["publish"]>(
    async (options) => {
      const result = await store.publish(options);
      await invalidateStale(cache, tenant, "post /setup_processes/{eid}/boost", { params: { path: { eid } } });
      return result;
    },
    [cache, eid, store, tenant],
  );
  return { draft: edited ?? loaded.data, state, error, edit, publish };
}
