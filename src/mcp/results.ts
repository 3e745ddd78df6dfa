/**
 * A successful tool result: the structured content the tool's output schema describes, secrets
 * masked, cut to fit {@link MAX_RESULT_BYTES} with a note saying how to narrow the request, and a
 * short text an agent (or a client that shows no structured content) can read.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { fitWithin } from "./fit.ts";
import type { Secrets } from "./secrets.ts";

/** A tool result's largest size, its JSON in UTF-8 bytes: what an agent's context can take. */
export const MAX_RESULT_BYTES = 64 * 1024;
// The text, the note and the envelope take less than this; the structured content gets the rest.
const ENVELOPE_BYTES = 2 * 1024;

/** What a tool returns: its structured content, a one-line summary, and how to ask for less. */
export interface ToolOutput {
  readonly structured: Record<string, unknown>;
  readonly summary: string;
  /** How to narrow the request, shown when the result was cut. */
  readonly narrow: string;
}

export function okResult(output: ToolOutput, secrets: Secrets): CallToolResult {
  const masked = secrets.value(output.structured);
  let fitted: ReturnType<typeof fitWithin<Record<string, unknown>>>;
  try {
    fitted = fitWithin(masked, MAX_RESULT_BYTES - ENVELOPE_BYTES);
  } catch {
    // Nested beyond what JSON.stringify can walk: nothing of it is shown.
    fitted = { value: {}, cut: true, bytes: Number.NaN };
  }
  const note = fitted.cut
    ? `The answer (${Number.isNaN(fitted.bytes) ? "too deep" : `${Math.round(fitted.bytes / 1024)} KB`}) was cut to fit ${MAX_RESULT_BYTES / 1024} KB: lists keep their first items and long texts their beginning. ${output.narrow}`
    : undefined;
  const structured = note ? { ...fitted.value, truncated: note } : fitted.value;
  const text = secrets.text(note ? `${output.summary} ${note}` : output.summary);
  return { content: [{ type: "text", text }], structuredContent: structured };
}
