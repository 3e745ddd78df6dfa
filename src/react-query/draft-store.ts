/**
 * One working draft per (client, partner, eid): every `useSetupDraft` of that draft, in any step or
 * component, edits this one object, so that no component's copy of an older draft can overwrite
 * another's edit. Each edit goes through the setup handle's ordered queue (the autosave of
 * workflows/autosave.ts: debounced 1 s, one PUT in flight, the newest edit stored, Section 3), and
 * the state is the newest edit's: `saved` only once the server holds the last edit.
 */
import type { AudienceClient } from "../client-types.ts";
import type { AudienceError } from "../errors/audience-error.ts";
import { SetupStateError } from "../errors/setup-state-error.ts";
import type { PublishResult, SetupPayload } from "../workflows/setup-process-types.ts";
import { eidText } from "./stale-reads.ts";
import type { QueryTenant } from "./tenant.ts";

/** What the wizard shows: nothing edited yet, an edit being stored, stored, failed, or published. */
export type DraftState = "idle" | "saving" | "saved" | "failed" | "published";

/** What every component of one draft reads; a new object at each change (useSyncExternalStore). */
interface DraftSnapshot {
  /** The working draft, once edited (before that, components show the draft as loaded). */
  readonly edited: SetupPayload | undefined;
  readonly state: DraftState;
  readonly error: AudienceError | undefined;
}

type PublishOptions = Parameters<ReturnType<AudienceClient["setupProcess"]>["publish"]>[0];

export interface DraftStore {
  snapshot(): DraftSnapshot;
  subscribe(listener: () => void): () => void;
  /** Merges `partial` into the working draft (the loaded one before the first edit) and autosaves it. */
  edit(partial: Partial<SetupPayload>, loaded: SetupPayload | null | undefined): void;
  /** Stores the pending edits, then publishes, through the same handle. */
  publish(options?: PublishOptions): Promise<PublishResult>;
}

const isPublished = (error: unknown): boolean => error instanceof SetupStateError && error.state === "published";
const stateAfter = (failure: unknown): DraftState => (isPublished(failure) ? "published" : "failed");

const stores = new WeakMap<AudienceClient, Map<string, DraftStore>>();

/** The working draft of `eid` for `tenant`'s partner on `client`: the same object for every caller. */
export function draftStoreOf(client: AudienceClient, tenant: QueryTenant, given: string): DraftStore {
  const byDraft = stores.get(client) ?? new Map<string, DraftStore>();
  stores.set(client, byDraft);
  // An id given as a number is the setup its text names (the client keeps one handle for both).
  const eid = eidText(given) ?? given;
  const name = JSON.stringify([tenant.partner, eid]);
  const store = byDraft.get(name) ?? createDraftStore(client, eid);
  byDraft.set(name, store);
  return store;
}

function createDraftStore(client: AudienceClient, eid: string): DraftStore {
  const listeners = new Set<() => void>();
  let snapshot: DraftSnapshot = { edited: undefined, state: "idle", error: undefined };
  let working: SetupPayload | undefined;
  let newest = 0; // the newest edit or publish: only its outcome sets the state
  const set = (next: Partial<DraftSnapshot>) => {
    snapshot = { ...snapshot, ...next };
    for (const listener of listeners) listener();
  };
  // Asked at each use: the client keeps one handle per eid while anyone holds it or it has work.
  const handle = () => client.setupProcess(eid);
  return {
    snapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    edit(partial, loaded) {
      working = { ...(working ?? loaded ?? undefined), ...partial } as SetupPayload;
      const mine = ++newest;
      set({ edited: working, state: "saving", error: undefined });
      handle()
        .autosave(working)
        .then(
          () => mine === newest && set({ state: "saved", error: undefined }),
          (failure: unknown) => mine === newest && set({ state: stateAfter(failure), error: failure as AudienceError }),
        );
    },
    async publish(options) {
      const mine = ++newest;
      set({ state: "saving", error: undefined });
      try {
        const result = await handle().publish(options);
        if (mine === newest) set({ state: "published", error: undefined });
        return result;
      } catch (failure) {
        if (mine === newest) set({ state: stateAfter(failure), error: failure as AudienceError });
        throw failure;
      }
    },
  };
}
