/**
 * A failure as a tool result (never a protocol error): what an agent needs to act — refused before
 * sending and which field, or the API's status, code and request id, and when to retry — in a
 * short text with every secret masked.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  ApiError,
  type AudienceClient,
  isAudienceError,
  RateLimitError,
  SetupStateError,
  ValidationError,
} from "../index.ts";
import type { Secrets } from "./secrets.ts";

/** A tool's own refusal (a missing draft, an unknown operation): said as it is. */
export class ToolRefusal extends Error {
  override name = "ToolRefusal";
}

/** The error result of a tool call; `deadlineMs` is the tool's own bound. */
export function errorResult(
  error: unknown,
  client: Pick<AudienceClient, "rateState">,
  secrets: Secrets,
  deadlineMs: number,
): CallToolResult {
  return { isError: true, content: [{ type: "text", text: secrets.text(describe(error, client, deadlineMs)) }] };
}

function describe(error: unknown, client: Pick<AudienceClient, "rateState">, deadlineMs: number): string {
  if (error instanceof ToolRefusal) return error.message;
  if (error instanceof ValidationError)
    return `Invalid arguments, nothing was sent: ${error.issues.map((i) => `${i.field}: ${i.message}`).join("; ")}`;
  if (error instanceof SetupStateError) return `${error.message} (nothing was sent)`;
  const retry = retryHint(isAudienceError(error) ? error.retryAt : undefined, client);
  if (error instanceof ApiError) {
    const what = `The API answered HTTP ${error.status}${error.code ? ` (${error.code})` : ""}, request id ${error.requestId ?? "none"}`;
    const busy = error instanceof RateLimitError || error.status === 429;
    return `${what}: ${error.message}${busy ? `. The partner's rate limit is reached${retry}` : ""}`;
  }
  if (isAudienceError(error) || isAbort(error)) {
    const name = isAudienceError(error) ? error.name : "Aborted";
    const late = /Timeout|Abort/.test(name)
      ? ` No answer within the tool's ${Math.round(deadlineMs / 1000)} s bound`
      : "";
    const id = isAudienceError(error) && error.requestId ? ` (request id ${error.requestId})` : "";
    const unsure =
      isAudienceError(error) && error.mayHaveSucceeded
        ? " The write may have been stored: read before repeating it."
        : "";
    return `${name}${id}: ${error instanceof Error ? error.message : "aborted"}.${late}${retry}${unsure}`;
  }
  return `Internal error (${error instanceof Error ? error.name : typeof error}); nothing more is known.`;
}

const isAbort = (error: unknown): boolean => error instanceof Error && /Abort|Timeout/.test(error.name);

/** When to try again: the call's own `retryAt`, else the partner's 429 cool-down, if any. */
function retryHint(retryAt: number | undefined, client: Pick<AudienceClient, "rateState">): string {
  const at = retryAt ?? client.rateState().coolDownUntil ?? undefined;
  if (at === undefined) return ".";
  const seconds = Math.max(1, Math.ceil((at - Date.now()) / 1000));
  return `; retry after ${new Date(at).toISOString()} (in ${seconds} s).`;
}
