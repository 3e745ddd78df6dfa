/**
 * The tools' input schemas, made of the description's own request schemas (generated/validators.ts,
 * the ones the client validates requests with), and their JSON Schema as tools/list shows it —
 * compact, since every byte of the tool list is in the agent's context.
 */
import * as z from "zod/mini";
import { requestValidators, SetupPayload } from "../../generated/validators.ts";
import { toValidationIssues } from "../guards/zod-issues.ts";
import { ValidationError } from "../index.ts";

/** The shape of one operation's query schema (a generated z.looseObject). */
function queryShape(operation: string): Record<string, z.ZodMiniType> {
  const query = requestValidators[operation]?.query as z.ZodMiniObject | undefined;
  if (!query) throw new Error(`no query schema for ${operation}`);
  return query.def.shape as Record<string, z.ZodMiniType>;
}

/** An event id (Section 2: a string). */
const eid = z.string().check(z.minLength(1));
/** `type` of the prediction reads (capacity or ticket_count). */
export const predictionInput = z.strictObject({
  eid,
  type: queryShape("GET /events/{eid}/lookout_prediction").type as z.ZodMiniType<"capacity" | "ticket_count">,
});
/** `budget` and `goal` of the cluster recommendations. */
export const clustersInput = z.strictObject({ eid, ...queryShape("GET /events/{eid}/suggested_tcs") });
/** One page of GET /events/: its page number and order; `maxItems` is the page size asked for. */
export const listEventsInput = (maxPageLimit: number) => {
  const { page, descending } = queryShape("GET /events/");
  return z.strictObject({
    page: page as z.ZodMiniType<number | undefined>,
    maxItems: z.optional(z.int().check(z.gte(1), z.lte(maxPageLimit))),
    descending: descending as z.ZodMiniType<boolean | undefined>,
  });
};
export const eidInput = z.strictObject({ eid });
export const campaignResultsInput = z.strictObject({ eid, adplatform: z.optional(z.string().check(z.minLength(1))) });
/** save_draft: the setup payload of Section 2, whole (PUT replaces the draft). */
export const saveDraftInput = z.strictObject({ eid, draft: SetupPayload });

/** The arguments as `schema` reads them, or a ValidationError naming each bad field. */
export function parseArgs<T>(schema: z.ZodMiniType<T>, args: unknown): T {
  const parsed = z.safeParse(schema, args ?? {});
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.flatMap((issue) =>
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({
          field: [...issue.path.map(String), key].join("."),
          message: "is not an argument of this tool",
        }))
      : toValidationIssues([issue as never], ""),
  );
  throw new ValidationError(issues);
}

type Json = { [key: string]: unknown };

/** `schema` as JSON Schema, without what costs context and tells an agent nothing. */
export function jsonSchemaOf(schema: z.ZodMiniType): Json {
  const full = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Json;
  return compact(full, "") as Json;
}

function compact(node: unknown, key: string): unknown {
  if (Array.isArray(node)) return node.map((n) => compact(n, ""));
  if (!node || typeof node !== "object") return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "$schema" || (isEmpty(v) && (k === "items" || k === "additionalProperties"))) continue;
    if (k === "additionalProperties" && v === false) continue; // tools/call refuses unknown fields itself
    out[k] = compact(v, k);
  }
  // The generated date check is a refinement, which JSON Schema cannot carry: say the format.
  if (key.endsWith("_date") && out.type === "string") out.format = "date";
  return out;
}

const isEmpty = (v: unknown): boolean => !!v && typeof v === "object" && Object.keys(v).length === 0;
