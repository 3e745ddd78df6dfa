/**
 * publish_setup (needs `--allow-publish` and a client that can ask a person): publishing starts
 * paid campaigns on ad platforms (Section 3), so the person is shown the event and the draft's goal,
 * budget and dates as the API holds them now, and the answer is bound to that content: the draft is
 * read again after the yes, and a draft that changed meanwhile is not published. Then it publishes
 * as the client's setup handle does — pending edits flushed first, the boost, the ad-platform
 * connection read after it — and says that a 2xx does not prove the campaigns exist.
 */
import type { AudienceClient, PublishResult, SetupProcess } from "../index.ts";
import { ToolRefusal } from "./errors.ts";
import type { ToolOutput } from "./results.ts";
import { eidInput } from "./schemas.ts";
import { describeDraft, eventName, fingerprint } from "./setup-text.ts";
import { loaded } from "./setup-tools.ts";
import { shape, type ToolContext, type ToolSpec } from "./tool.ts";

export function publishTool(client: AudienceClient): ToolSpec<never> {
  const spec: ToolSpec<{ eid: string }> = {
    name: "publish_setup",
    description:
      "Publishes the event's campaign draft: live, paid campaigns on the ad platform. The person is shown the draft and confirms; nothing is published otherwise.",
    access: "publish",
    asks: true,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    input: eidInput,
    output: shape(
      {
        published: { type: "boolean" },
        answer: { type: "string" },
        taskId: { type: ["string", "null"] },
        requestId: { type: ["string", "null"] },
        connection: {},
      },
      "published",
      "answer",
    ),
    async run({ eid }, ctx) {
      const handle = client.setupProcess(eid);
      await handle.flush({ deadlineMs: ctx.left() }); // the API holds the latest edit before it is shown
      const asked = await draftOf(eid, ctx, handle);
      const name = await eventName(client, eid, ctx);
      const answer = await ctx.ask(
        `Publish the campaigns of event ${name}? This starts paid campaigns on the ad platform: ${describeDraft(asked)}.`,
        "Publish now",
      );
      if (answer !== "yes") return notPublished(answer, `Not published (${answer}); nothing was sent.`);
      ctx.restart();
      return ctx.exclusive(eid, async () => {
        await handle.flush({ deadlineMs: ctx.left() });
        const now = await draftOf(eid, ctx, handle);
        if (fingerprint(now) !== fingerprint(asked))
          return notPublished(
            answer,
            `Not published: the draft changed after the person was asked (now ${describeDraft(now)}); call publish_setup again to ask about it as it is.`,
          );
        return published(await handle.publish({ deadlineMs: ctx.left(), signal: ctx.signal() }));
      });
    },
  };
  return spec as unknown as ToolSpec<never>;
}

/** The draft as the API holds it now; a refusal when there is none to publish. */
async function draftOf(eid: string, ctx: ToolContext, handle: SetupProcess): Promise<unknown> {
  const { state, draft } = await loaded(handle, ctx);
  if (state !== "draft")
    throw new ToolRefusal(`The setup of event ${eid} is ${state}: there is no draft to publish; nothing was sent.`);
  return draft;
}

function notPublished(answer: string, summary: string): ToolOutput {
  return { structured: { published: false, answer }, summary, narrow: "" };
}

function published(result: PublishResult): ToolOutput {
  const { taskId, status, requestId, connection, connectionChecked } = result;
  // Section 3: a 200 or 201 does not guarantee the campaigns exist on the ad platform.
  const proof = connectionChecked
    ? `the ad-platform connection reads ${JSON.stringify(connection)?.slice(0, 200)}`
    : "no ad platform is configured, so its connection was not checked";
  return {
    structured: {
      published: true,
      answer: "yes",
      taskId: taskId ?? null,
      requestId: requestId ?? null,
      connection: connection ?? null,
    },
    summary: `Published (HTTP ${status}, boost task ${taskId ?? "unknown"}, request id ${requestId ?? "none"}). A 2xx does not prove the campaigns exist on the ad platform (Section 3): ${proof}; check campaign_results later.`,
    narrow: "",
  };
}
