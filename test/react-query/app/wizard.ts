/**
 * The campaign wizard: a text field autosaved through `useSetupDraft` while the browser types into
 * it (the test drives real keystrokes), then a publish, then one more edit that the published
 * setup refuses (SetupStateError reaches the component typed).
 */
import { SetupStateError } from "@audience-intelligence/client";
import type { SetupDraft } from "@audience-intelligence/client/react-query";
import { h, hooksA, mount, newQueryClient, waitFor } from "./harness.ts";

/** Not the event the publish scenario publishes: each scenario starts from a draft. */
const WIZARD_EID = "evt-1002";
let wizard: SetupDraft | undefined;
const states: string[] = [];

function Wizard() {
  const draft = hooksA.useSetupDraft(WIZARD_EID);
  wizard = draft;
  if (states.at(-1) !== draft.state) states.push(draft.state);
  const name = (draft.draft as { campaign_name?: string } | null | undefined)?.campaign_name ?? "";
  return h(
    "form",
    null,
    h("input", {
      id: "campaign-name",
      value: name,
      disabled: draft.draft === undefined,
      onChange: (event: { target: { value: string } }) => draft.edit({ campaign_name: event.target.value }),
    }),
    h("p", { "data-id": "state" }, draft.state),
    h("p", { "data-id": "error" }, draft.error ? `${draft.error.name}|${draft.error instanceof SetupStateError}` : ""),
  );
}

let unmount: (() => void) | undefined;

/** Mounts the wizard; resolves once the draft is loaded (the field enabled). */
export async function startWizard(): Promise<void> {
  states.length = 0;
  const app = mount(newQueryClient(), h(Wizard));
  unmount = app.unmount;
  await waitFor("the draft to load", () => (wizard?.draft === undefined ? undefined : true));
}

/** After the typing: waits for the last edit to be stored, publishes, then edits once more. */
export async function finishWizard() {
  const current = () => wizard as SetupDraft;
  await waitFor("the last edit stored", () => (current().state === "saved" ? true : undefined), 5_000);
  const stored = (current().draft as { campaign_name?: string }).campaign_name;
  const published = await current().publish();
  await waitFor("published", () => (current().state === "published" ? true : undefined));
  current().edit({ campaign_name: "after publish" });
  await waitFor("the refusal", () => (current().error ? true : undefined));
  const afterPublish = {
    state: current().state,
    error: current().error?.name,
    typed: current().error instanceof SetupStateError,
  };
  unmount?.();
  return { stored, published: published.status, states: [...states], afterPublish };
}
