/**
 * The drift scenario's answers (Section 9.2: the description can drift from the service): a 2xx
 * answer either comes with a status no operation declares (203), or, where the description makes
 * fields of the answer required, without them.
 */
import { readFileSync } from "node:fs";
import type { Answer } from "./answer.ts";
import type { FaultRequest } from "./faults.ts";
import type { Random } from "./random.ts";

/** The required top-level fields of each operation's 2xx JSON answer, looked up by method and path. */
export type RequiredFields = (method: string, path: string) => readonly string[];

type Schema = { $ref?: string; required?: string[] };
type Operation = { responses?: Record<string, { $ref?: string; content?: Record<string, { schema?: Schema }> }> };
type Description = {
  paths?: Record<string, Record<string, Operation>>;
  components?: {
    schemas?: Record<string, Schema>;
    responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
  };
};

/** Reads the required fields from a JSON description; another format gives none (drift then changes statuses only). */
export function requiredFieldsOf(descriptionPath: string): RequiredFields {
  let description: Description;
  try {
    description = JSON.parse(readFileSync(descriptionPath, "utf8")) as Description;
  } catch {
    return () => [];
  }
  const named = <T>(table: Record<string, T> | undefined, ref: string | undefined): T | undefined =>
    ref ? table?.[ref.split("/").pop() ?? ""] : undefined;
  const table: Array<{ method: string; pattern: RegExp; required: string[] }> = [];
  for (const [template, operations] of Object.entries(description.paths ?? {})) {
    const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^{}]+\}/g, "[^/]+")}$`);
    for (const [method, operation] of Object.entries(operations)) {
      for (const [status, declared] of Object.entries(operation.responses ?? {})) {
        if (!status.startsWith("2")) continue;
        const response = named(description.components?.responses, declared.$ref) ?? declared;
        const schema = response.content?.["application/json"]?.schema;
        const required = (named(description.components?.schemas, schema?.$ref) ?? schema)?.required;
        if (required?.length) table.push({ method: method.toUpperCase(), pattern, required });
      }
    }
  }
  return (method, path) => table.find((row) => row.method === method && row.pattern.test(path))?.required ?? [];
}

/** A drifted copy of a 2xx answer. */
export function driftedAnswer(request: FaultRequest, answer: Answer, random: Random, required: RequiredFields): Answer {
  const fields = required(request.method, request.path);
  const pick = random();
  if (fields.length > 0 && pick < 0.5) {
    try {
      const body = JSON.parse(answer.body) as Record<string, unknown>;
      for (const field of fields) delete body[field];
      return { ...answer, body: JSON.stringify(body) };
    } catch {
      // not JSON after all: drift by status below
    }
  }
  return { ...answer, status: 203 };
}
