/**
 * read_api: any GET operation of the API description, by its "GET /path/{param}" name, and nothing
 * else — the list comes from the generated operation table, so a write can never be named. The
 * client checks the parameters against the description before sending.
 */
import * as z from "zod/mini";
import { operations } from "../../generated/operations.ts";
import { type AudienceClient, unwrap } from "../index.ts";
import { ToolRefusal } from "./errors.ts";
import { shape, type ToolSpec } from "./tool.ts";

const GETS = operations.filter((op) => op.method === "GET");
const NAMES = GETS.map((op) => `GET ${op.path}`) as [string, ...string[]];
const scalar = z.union([z.string(), z.number(), z.boolean()]);

const input = z.strictObject({
  operation: z.enum(NAMES),
  path: z.optional(z.record(z.string(), z.string())),
  query: z.optional(z.record(z.string(), z.union([scalar, z.array(scalar)]))),
});

export function readApiTool(client: AudienceClient): ToolSpec<never> {
  const spec: ToolSpec<z.infer<typeof input>> = {
    name: "read_api",
    description:
      'Any GET operation of the API by name, e.g. "GET /events/{eid}/tickets"; path: its {params}; query: its query. Reads only.',
    access: "read",
    annotations: { readOnlyHint: true, openWorldHint: true },
    input,
    output: shape({ data: {} }, "data"),
    async run({ operation, path = {}, query }, ctx) {
      // The input schema admits the GET names only; this is the same rule, said where it is used.
      const op = GETS.find((o) => `GET ${o.path}` === operation);
      if (!op) throw new ToolRefusal(`operation: not a GET operation of the API; nothing was sent`);
      const extra = Object.keys(path).filter((k) => !op.pathParams.includes(k));
      if (extra.length)
        throw new ToolRefusal(
          `path.${extra[0]}: not a parameter of ${operation}; nothing was sent (its parameters: ${op.pathParams.join(", ") || "none"})`,
        );
      const params = { path, ...(query ? { query } : {}) };
      const data: unknown = unwrap(
        await client.request("get", op.path as "/events/", { params, signal: ctx.signal() } as never),
      );
      return {
        structured: { data },
        summary: `${operation}: ${Array.isArray(data) ? `${data.length} item(s)` : "answered"}.`,
        narrow: "Pass a smaller limit in query, or read a narrower operation.",
      };
    },
  };
  return spec as unknown as ToolSpec<never>;
}
