/**
 * The tools of an event's campaign setup (Section 3), all through the client's setup handle: its
 * ordered autosave queue (edits never overlap or land out of order) and its state guards (no PUT
 * on a published setup, no publish of an absent draft). get_setup reads; save_draft needs
 * `--allow-writes`; cancel_draft needs it too and asks the person first.
 */
import type { AudienceClient, SetupPayload, SetupProcess } from "../index.ts";
import { ToolRefusal } from "./errors.ts";
import { eidInput, saveDraftInput } from "./schemas.ts";
import { describeDraft, eventName } from "./setup-text.ts";
import { shape, type ToolContext, type ToolSpec } from "./tool.ts";

const STATE = { enum: ["none", "draft", "published"] };

export function setupTools(client: AudienceClient): ToolSpec<never>[] {
  const getSetup: ToolSpec<{ eid: string }> = {
    name: "get_setup",
    description: "The campaign setup of an event: state none, draft or published, and the draft as the API holds it.",
    access: "read",
    annotations: { readOnlyHint: true, openWorldHint: true },
    input: eidInput,
    output: shape({ state: STATE, draft: {} }, "state", "draft"),
    async run({ eid }, ctx) {
      const { state, draft } = await loaded(client.setupProcess(eid), ctx);
      return {
        structured: { state, draft: draft ?? null },
        summary: `Setup of event ${eid}: ${state}${draft ? ` (${describeDraft(draft)})` : ""}.`,
        narrow: "The draft itself is this large; read its fields with read_api.",
      };
    },
  };
  const saveDraft: ToolSpec<{ eid: string; draft: SetupPayload }> = {
    name: "save_draft",
    description:
      "Creates the event's campaign draft, or replaces it (fields left out are removed: read get_setup first). Dates YYYY-MM-DD. Not for a published setup.",
    access: "write",
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    input: saveDraftInput as unknown as ToolSpec<{ eid: string; draft: SetupPayload }>["input"],
    output: shape({ created: { type: "boolean" }, draft: {} }, "created", "draft"),
    run: ({ eid, draft }, ctx) =>
      ctx.exclusive(eid, async () => {
        const handle = client.setupProcess(eid);
        const { state } = handle.state === "unknown" ? await loaded(handle, ctx) : handle;
        if (state === "published")
          throw new ToolRefusal(
            `The setup of event ${eid} is published: save_draft edits drafts only; nothing was sent.`,
          );
        const created = state === "none";
        const stored = created
          ? await handle.create(draft, { deadlineMs: ctx.left(), signal: ctx.signal() })
          : await inOrder(handle, draft, ctx);
        return {
          structured: { created, draft: stored ?? draft },
          summary: `Draft of event ${eid} ${created ? "created" : "saved"}: ${describeDraft(stored ?? draft)}.`,
          narrow: "The stored draft is this large; read its fields with read_api.",
        };
      }),
  };
  const cancelDraft: ToolSpec<{ eid: string }> = {
    name: "cancel_draft",
    description: "Deletes the event's unpublished campaign draft, after the person confirms.",
    access: "write",
    asks: true,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    input: eidInput,
    output: shape({ cancelled: { type: "boolean" }, answer: { type: "string" } }, "cancelled", "answer"),
    async run({ eid }, ctx) {
      const handle = client.setupProcess(eid);
      await handle.flush({ deadlineMs: ctx.left() });
      const { state, draft } = await loaded(handle, ctx);
      if (state !== "draft")
        throw new ToolRefusal(`The setup of event ${eid} is ${state}: there is no draft to cancel; nothing was sent.`);
      const name = await eventName(client, eid, ctx);
      const answer = await ctx.ask(
        `Cancel (delete) the campaign draft of event ${name}? The draft: ${describeDraft(draft)}.`,
        "Delete the draft",
      );
      if (answer !== "yes")
        return {
          structured: { cancelled: false, answer },
          summary: `Not cancelled (${answer}); nothing was sent.`,
          narrow: "",
        };
      ctx.restart();
      await ctx.exclusive(eid, () => handle.cancel({ deadlineMs: ctx.left(), signal: ctx.signal() }));
      return {
        structured: { cancelled: true, answer },
        summary: `The draft of event ${eid} was cancelled.`,
        narrow: "",
      };
    },
  };
  return [getSetup, saveDraft, cancelDraft] as unknown as ToolSpec<never>[];
}

/** The setup as the API holds it now, and its state (the handle learns it from the answer). */
export async function loaded(
  handle: SetupProcess,
  ctx: ToolContext,
): Promise<{ state: "none" | "draft" | "published"; draft: unknown }> {
  const draft = await handle.load({ deadlineMs: ctx.left(), signal: ctx.signal() });
  const state = draft === undefined ? "none" : handle.state === "published" ? "published" : "draft";
  return { state, draft };
}

/**
 * An update through the handle's ordered queue (after any save in flight, never overlapping it),
 * waited for within the call's bound; past it the save goes on and the error says so.
 */
async function inOrder(handle: SetupProcess, draft: SetupPayload, ctx: ToolContext): Promise<unknown> {
  const saving = handle.update(draft);
  saving.catch(() => undefined); // its failure is reported by the race below or by the next flush
  return Promise.race([saving, handle.flush({ deadlineMs: ctx.left() }).then(() => saving)]);
}
