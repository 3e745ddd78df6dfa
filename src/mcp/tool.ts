/** What a tool is: its contract as tools/list shows it, the flag it needs, and its work. */
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type * as z from "zod/mini";
import type { AudienceClient } from "../index.ts";
import type { ToolOutput } from "./results.ts";

/** Which flag a tool needs: none for reads, `--allow-writes`, `--allow-publish`. */
type Access = "read" | "write" | "publish";

/** How a person answered a question (MCP elicitation): only "yes" lets the tool go on. */
export type Consent = "yes" | "declined" | "cancelled" | "no answer";

/** What a tool call has to work with. */
export interface ToolContext {
  readonly client: AudienceClient;
  /** Ms left of the call's bound, for the helpers' `deadlineMs`. */
  left(): number;
  /** The call's signal: the client cancelled it, or its bound passed. */
  signal(): AbortSignal;
  /** A fresh bound, once a person has answered (their time is not the API's). */
  restart(): void;
  /** Asks the person (form-mode elicitation); "yes" only on an explicit yes. */
  ask(message: string, yesLabel: string): Promise<Consent>;
  /** Runs `work` alone among the setup tools of `eid` (a save cannot slip between a check and a publish). */
  exclusive<T>(eid: string, work: () => Promise<T>): Promise<T>;
  /** Text shown to a person, secrets masked and control characters escaped. */
  shown(text: string): string;
}

export interface ToolSpec<A = never> {
  readonly name: string;
  readonly description: string;
  readonly access: Access;
  /** Whether the tool asks a person before it sends (offered only to clients that can ask). */
  readonly asks?: boolean;
  readonly input: z.ZodMiniType<A>;
  /** JSON Schema of the structured content. */
  readonly output: Record<string, unknown>;
  readonly annotations: ToolAnnotations;
  run(args: A, context: ToolContext): Promise<ToolOutput>;
}

/** A JSON Schema object with these properties, the `required` ones listed. */
export function shape(properties: Record<string, unknown>, ...required: string[]): Record<string, unknown> {
  return { type: "object", properties, ...(required.length ? { required } : {}) };
}
