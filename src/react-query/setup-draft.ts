/**
 * `useSetupDraft(eid)`: the campaign wizard's draft (Section 3) over the client's setup handle,
 * which already debounces autosaves 1 s, keeps one PUT in flight and stores the newest edit
 * (workflows/autosave.ts). This hook adds the draft as the UI holds it and the state to show.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useRef, useState } from "react";
import type { AudienceClient } from "../client-types.ts";
import type { AudienceError } from "../errors/audience-error.ts";
import { SetupStateError } from "../errors/setup-state-error.ts";
import type { PublishResult, SetupPayload } from "../workflows/setup-process-types.ts";
import { invalidateStale } from "./invalidate.ts";
import { queryKeyOf } from "./query-key.ts";
import { ONE_LAYER_RETRIES } from "./query-options.ts";

/** What the wizard shows: nothing edited yet, an edit being stored, stored, failed, or published. */
export type DraftState = "idle" | "saving" | "saved" | "failed" | "published";

/** What `useSetupDraft(eid)` returns. */
export interface SetupDraft {
  /** The draft as edited here, else as loaded (`null`: no draft exists, a 404), `undefined` while loading. */
  readonly draft: SetupPayload | null | undefined;
  /** What to show: idle, saving, saved, failed or published. */
  readonly state: DraftState;
  /** Why the last save or publish failed (`SetupStateError` once the setup is published). */
  readonly error: AudienceError | undefined;
  /** Merges `partial` into the draft and autosaves it: debounced 1 s, ordered, the newest edit stored. */
  edit(partial: Partial<SetupPayload>): void;
  /**
   * Stores the pending edits, then publishes (POST …/boost), guarded as `setupProcess` guards it
   * (refused with `SetupStateError` once published); refreshes the reads the publish made stale.
   */
  publish(options?: Parameters<ReturnType<AudienceClient["setupProcess"]>["publish"]>[0]): Promise<PublishResult>;
}

interface Status {
  readonly eid: string;
  readonly state: DraftState;
  readonly error: AudienceError | undefined;
}

const isPublished = (error: unknown): boolean => error instanceof SetupStateError && error.state === "published";

/** Builds `useSetupDraft` of one client. */
export function setupDraftFor(client: AudienceClient, partner: () => string): (eid: string) => SetupDraft {
  return (eid) => useSetupDraft(client, partner, eid);
}

/** The hook itself, at module level (one identity for every client). */
function useSetupDraft(client: AudienceClient, partner: () => string, eid: string): SetupDraft {
  const cache = useQueryClient();
  const handle = client.setupProcess(eid); // one handle per eid: the same ordered queue for every caller
  const loaded = useQuery({
    // Its own key below the plain read's: a 404 is `null` here, a NotFoundError there.
    queryKey: queryKeyOf(partner(), "get", "/setup_processes/{eid}", { params: { path: { eid } } }, "draft"),
    queryFn: async ({ signal }) => ((await handle.load({ signal })) ?? null) as SetupPayload | null,
    ...ONE_LAYER_RETRIES,
  });
  const [edited, setEdited] = useState<SetupPayload | undefined>(undefined);
  // The state belongs to the eid it was set for: another eid starts idle.
  const [status, setStatus] = useState<Status>({ eid, state: "idle", error: undefined });
  const latest = useRef<{ eid: string; draft: SetupPayload; n: number } | undefined>(undefined);
  const stored = useRef<SetupPayload | null | undefined>(undefined);
  stored.current = loaded.data;

  const settle = useCallback((n: number, failure?: unknown) => {
    const edit = latest.current;
    if (edit?.n !== n) return; // a newer edit decides the state
    const state = failure === undefined ? "saved" : isPublished(failure) ? "published" : "failed";
    setStatus({ eid: edit.eid, state, error: failure as AudienceError | undefined });
  }, []);

  const edit = useCallback(
    (partial: Partial<SetupPayload>) => {
      // Read at the call, not at the last render: keystrokes may come faster than renders.
      const base = latest.current?.eid === eid ? latest.current.draft : (stored.current ?? undefined);
      const draft = { ...base, ...partial } as SetupPayload;
      const n = (latest.current?.n ?? 0) + 1;
      latest.current = { eid, draft, n };
      setEdited(draft);
      setStatus({ eid, state: "saving", error: undefined });
      handle.autosave(draft).then(
        () => settle(n),
        (failure: unknown) => settle(n, failure),
      );
    },
    [eid, handle, settle],
  );

  const publish = useCallback<SetupDraft["publish"]>(
    async (options) => {
      setStatus({ eid, state: "saving", error: undefined });
      try {
        const result = await handle.publish(options);
        setStatus({ eid, state: "published", error: undefined });
        await invalidateStale(cache, partner(), "post /setup_processes/{eid}/boost", { params: { path: { eid } } });
        return result;
      } catch (failure) {
        setStatus({ eid, state: isPublished(failure) ? "published" : "failed", error: failure as AudienceError });
        throw failure;
      }
    },
    [cache, eid, handle, partner],
  );

  const draft = latest.current?.eid === eid ? edited : loaded.data;
  const { state, error } = status.eid === eid ? status : { state: "idle" as const, error: undefined };
  return { draft, state, error, edit, publish };
}
