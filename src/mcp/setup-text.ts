/** What a person (or an agent) is shown of a setup: the event's name and the draft's terms. */
import { type AudienceClient, unwrap } from "../index.ts";
import type { ToolContext } from "./tool.ts";

const field = (draft: unknown, key: string): string => {
  const value = typeof draft === "object" && draft !== null ? (draft as Record<string, unknown>)[key] : undefined;
  return value === undefined || value === null ? "not set" : typeof value === "string" ? value : JSON.stringify(value);
};

/** The terms a publish commits to: goal, budget and dates, as the API holds them. */
export function describeDraft(draft: unknown): string {
  return `goal ${field(draft, "goal")}, total budget ${field(draft, "total_budget")}, from ${field(draft, "start_date")} to ${field(draft, "end_date")}`;
}

/** `"<name>" (<eid>)`, or the eid alone when the event cannot be read. */
export async function eventName(client: AudienceClient, eid: string, ctx: ToolContext): Promise<string> {
  try {
    const event = unwrap(await client.GET("/events/{eid}", { params: { path: { eid } }, signal: ctx.signal() }));
    const name = (event as { name?: unknown } | undefined)?.name;
    return typeof name === "string" && name ? `"${name.slice(0, 200)}" (${eid})` : eid;
  } catch {
    return eid;
  }
}

/** The draft as JSON with its keys sorted: two reads of one draft give one text. */
export function fingerprint(draft: unknown): string {
  return JSON.stringify(draft, (_key, value: unknown) =>
    value && typeof value === "object" && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
}
