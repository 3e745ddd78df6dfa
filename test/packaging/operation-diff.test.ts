/** The operation diff `npm run vendor:update` prints: what counts as a change, and how it reads. */
import { describe, expect, it } from "vitest";
import { diffOperations, formatDiff, hasOperationChanges } from "../../scripts/vendor-update.ts";

type Doc = Parameters<typeof diffOperations>[0];

const base = (): Doc => ({
  openapi: "3.1.0",
  info: { title: "t", version: "1.0.0" },
  paths: {
    "/events/{eid}": {
      parameters: [{ $ref: "#/components/parameters/Eid" }],
      get: {
        operationId: "getEvent",
        summary: "Read one event",
        responses: {
          "200": {
            description: "OK",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Event" } } },
          },
        },
      },
    },
    "/status/": { get: { operationId: "getStatus", responses: { "200": { description: "OK" } } } },
  },
  components: {
    parameters: { Eid: { name: "eid", in: "path", required: true, schema: { type: "string" } } },
    schemas: {
      Event: {
        type: "object",
        required: ["id"],
        properties: { id: { type: "string" }, description: { type: "string" } },
      },
    },
  },
});

describe("diffOperations", () => {
  it("finds nothing between equal descriptions", () => {
    const diff = diffOperations(base(), base());
    expect(hasOperationChanges(diff)).toBe(false);
    expect(diff.unchanged).toBe(2);
  });

  it("reports added and removed (method, path) pairs with their operation ids", () => {
    const after = base();
    const paths = after.paths as Record<string, Record<string, unknown>>;
    delete paths["/status/"];
    (paths["/events/{eid}"] as Record<string, unknown>).delete = {
      operationId: "deleteEvent",
      responses: { "204": { description: "gone" } },
    };
    const diff = diffOperations(base(), after);
    expect(diff.added.map((op) => [op.key, op.operationId])).toEqual([["DELETE /events/{eid}", "deleteEvent"]]);
    expect(diff.removed.map((op) => [op.key, op.operationId])).toEqual([["GET /status/", "getStatus"]]);
    expect(formatDiff(diff)).toMatch(/^ {2}\+ DELETE \/events\/\{eid\} {2}deleteEvent$/m);
    expect(formatDiff(diff)).toMatch(/^ {2}- GET \/status\/ {10}getStatus$/m); // aligned with the longest key
  });

  it("sees a change behind a $ref (a shared schema or parameter) as a change of each operation using it", () => {
    const after = base();
    const components = after.components as {
      schemas: { Event: { properties: Record<string, unknown>; required: string[] } };
      parameters: { Eid: { schema: unknown } };
    };
    components.schemas.Event.required.push("name");
    components.schemas.Event.properties.name = { type: "string" };
    components.parameters.Eid.schema = { type: "string", pattern: "^evt-" };
    const diff = diffOperations(base(), after);
    expect(diff.changed).toHaveLength(1);
    const [changed] = diff.changed;
    expect(changed?.key).toBe("GET /events/{eid}");
    expect(changed?.changes).toEqual([
      'parameters.path:eid.schema.pattern: (absent) → "^evt-"',
      'responses.200.content.application/json.schema.properties.name: (absent) → {"type":"string"}',
      'responses.200.content.application/json.schema.required: ["id"] → ["id","name"]',
    ]);
  });

  it("keeps prose-only edits apart, but a schema property named like a prose key is contract", () => {
    const prose = base();
    const get = (prose.paths as Record<string, Record<string, Record<string, unknown>>>)["/events/{eid}"]
      ?.get as Record<string, unknown>;
    get.summary = "Read an event";
    get.description = "More words.";
    const proseDiff = diffOperations(base(), prose);
    expect(hasOperationChanges(proseDiff)).toBe(false);
    expect(proseDiff.proseOnly).toEqual(["GET /events/{eid}"]);

    const contract = base();
    const schema = (contract.components as { schemas: { Event: { properties: Record<string, unknown> } } }).schemas
      .Event;
    delete schema.properties.description;
    const contractDiff = diffOperations(base(), contract);
    expect(contractDiff.changed[0]?.changes).toEqual([
      'responses.200.content.application/json.schema.properties.description: {"type":"string"} → (absent)',
    ]);
  });

  it("ignores the order of parameters, and survives recursive schemas", () => {
    const before = base();
    const schemas = (before.components as { schemas: Record<string, unknown> }).schemas;
    schemas.Event = { type: "object", properties: { parent: { $ref: "#/components/schemas/Event" } } };
    const after = structuredClone(before);
    const item = (after.paths as Record<string, { parameters: unknown[] }>)["/events/{eid}"];
    item?.parameters.unshift({ name: "x-trace", in: "header", schema: { type: "string" } });
    item?.parameters.reverse();
    const diff = diffOperations(before, after);
    expect(diff.changed[0]?.changes).toEqual([
      'parameters.header:x-trace: (absent) → {"name":"x-trace","in":"header","schema":{"type":"string"}}',
    ]);
  });
});
