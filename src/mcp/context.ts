/**
 * One tool call's context: its bound (the API's time, restarted once a person has answered), its
 * signal (the MCP client's cancel, or the bound), the person's answer through form-mode
 * elicitation, and one setup tool at a time per event.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { AudienceClient } from "../index.ts";
import { terminalSafe } from "../internal/terminal-text.ts";
import type { Secrets } from "./secrets.ts";
import type { Consent, ToolContext } from "./tool.ts";

/** What every call's context shares. */
export interface Shared {
  readonly server: Server;
  readonly client: AudienceClient;
  readonly secrets: Secrets;
  readonly deadlineMs: number;
  readonly confirmTimeoutMs: number;
  /** The tail of each event's queue of setup work. */
  readonly queues: Map<string, Promise<unknown>>;
}

export function toolContext(shared: Shared, cancelled: AbortSignal): ToolContext {
  let endsAt = performance.now() + shared.deadlineMs;
  const shown = (text: string): string => terminalSafe(shared.secrets.text(text));
  return {
    client: shared.client,
    left: () => Math.max(0, Math.round(endsAt - performance.now())),
    signal: () =>
      AbortSignal.any([cancelled, AbortSignal.timeout(Math.max(0, Math.round(endsAt - performance.now())))]),
    restart: () => {
      endsAt = performance.now() + shared.deadlineMs;
    },
    shown,
    ask: (message, yesLabel) => ask(shared, cancelled, shown(message), yesLabel),
    exclusive: (eid, work) => exclusive(shared.queues, eid, work),
  };
}

/**
 * Form-mode elicitation: one boolean the person must set. Only an accepted form with it true is a
 * yes; a decline, a cancel, an accepted form without it, an error or no answer within
 * `confirmTimeoutMs` is not (clients differ: some answer "decline" when nobody was asked).
 */
async function ask(shared: Shared, cancelled: AbortSignal, message: string, yesLabel: string): Promise<Consent> {
  try {
    const answer = await shared.server.elicitInput(
      {
        mode: "form",
        message,
        requestedSchema: {
          type: "object",
          properties: { yes: { type: "boolean", title: yesLabel, default: false } },
          required: ["yes"],
        },
      },
      { timeout: shared.confirmTimeoutMs, signal: cancelled },
    );
    if (answer.action === "accept") return answer.content?.yes === true ? "yes" : "declined";
    return answer.action === "decline" ? "declined" : "cancelled";
  } catch {
    return "no answer";
  }
}

async function exclusive<T>(queues: Map<string, Promise<unknown>>, eid: string, work: () => Promise<T>): Promise<T> {
  const before = queues.get(eid) ?? Promise.resolve();
  const mine = before.then(work, work);
  const tail = mine.catch(() => undefined);
  queues.set(eid, tail);
  try {
    return await mine;
  } finally {
    if (queues.get(eid) === tail) queues.delete(eid);
  }
}
