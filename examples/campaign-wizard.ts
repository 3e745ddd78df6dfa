/**
 * Recipe: the campaign wizard (Section 3), without a UI framework — the part a wizard's screens
 * call. What it relies on, each a fact of the setup handle (`client.setupProcess(eid)`):
 *
 * - One working draft. Every step edits the same object and hands the whole of it to `autosave`:
 *   the handle debounces 1 s (Section 8.5) and sends one PUT at a time, the next only after the one
 *   in flight, so the stored draft is always the last edit (never an older one landing last).
 * - A failed autosave stays pending and is sent again by the next `autosave` or `flush`; the
 *   handle's `onPending`-style state is what a "saving… / saved" label reads (`pending()` here).
 * - `publish()` flushes pending edits first, then boosts; a 2xx does not prove the campaigns exist
 *   on the ad platform, so it reads the connection status after the boost — which needs
 *   `adPlatform` (on the client or given to `publish`); without one, `connectionChecked` is false.
 * - Creating the draft is a POST, not idempotent: the handle checks after an ambiguous failure
 *   instead of sending it again (Section 3 rule 3).
 *
 * For React, `useSetupDraft` from `/react-query` is the same thing as a hook (docs/REACT-QUERY.md).
 * Tested by test/examples/campaign-wizard.test.ts against `startMockApi`, under its scenarios.
 */
import type { AudienceClient, PublishResult, SetupPayload, SetupProcess } from "@audience-intelligence/client";

export interface Wizard {
  /** The working draft every step reads and edits. */
  readonly draft: Readonly<SetupPayload>;
  /** A step's edit: merged into the working draft, autosaved in order. */
  edit(patch: Partial<SetupPayload>): void;
  /** Whether an edit is not stored yet ("saving…"); false means the server holds the last edit. */
  pending(): boolean;
  /** The last autosave failure, if the latest edit is not stored (it will be sent again). */
  readonly lastError: unknown;
  /** Stores every pending edit now; rejects if the server refused one. */
  save(): Promise<void>;
  /** Flushes, then publishes (boost) and reads the ad platform's connection status. */
  publish(adPlatform?: string): Promise<PublishResult>;
}

/** Opens the wizard on `eid`: the draft the server holds, or a new one made of `start`. */
export async function openWizard(client: AudienceClient, eid: string, start: SetupPayload): Promise<Wizard> {
  const handle: SetupProcess = client.setupProcess(eid);
  const stored = (await handle.load()) as SetupPayload | undefined;
  if (stored === undefined) await handle.create(start);
  let draft: SetupPayload = stored ?? { ...start };
  let lastError: unknown;
  let pending = false;
  const track = (saving: Promise<void>): void => {
    pending = true;
    saving.then(
      () => {
        // Only the latest edit's save settles `pending`: an older one was superseded.
        if (current === saving) {
          pending = false;
          lastError = undefined;
        }
      },
      (error: unknown) => {
        if (current === saving) lastError = error; // stays pending: sent again by the next edit or save
      },
    );
  };
  let current: Promise<void> | undefined;
  return {
    get draft() {
      return draft;
    },
    get lastError() {
      return lastError;
    },
    edit(patch) {
      draft = { ...draft, ...patch };
      current = handle.autosave(draft);
      track(current);
    },
    pending: () => pending,
    async save() {
      await handle.flush();
      pending = false;
      lastError = undefined;
    },
    async publish(adPlatform) {
      const result = await handle.publish(adPlatform ? { adPlatform } : {});
      pending = false;
      return result;
    },
  };
}
