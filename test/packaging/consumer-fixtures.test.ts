/** Which operation a failing line of a consumer fixture is blamed on (scripts/lib/consumer-fixtures.ts). */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { helperOperations, operationAt } from "../../scripts/lib/consumer-fixtures.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

const fixture = `import { createAudienceClient, listEvents, unwrap } from "@audience-intelligence/client";
const client = createAudienceClient({ baseUrl: "" });
const event = unwrap(
  await client.GET("/events/{eid}", { params: { path: { eid: "evt-1" } } }),
);
const ids: string[] = [];
for await (const listed of listEvents(client, { maxItems: 3 })) ids.push(listed.id);
const id: string = event.id;
console.log(ids, id);
`;

describe("operationAt", async () => {
  const helpers = await helperOperations(root);

  it("knows which operation each helper of src/workflows calls", () => {
    expect(helpers.get("listEvents")).toBe("GET /events/");
  });

  it("blames the call on the line's statement, also when it spans lines", () => {
    expect(operationAt(fixture, 5, helpers)).toBe("GET /events/{eid}");
  });

  it("blames a helper's operation, not a client call a few lines up", () => {
    expect(operationAt(fixture, 7, helpers)).toBe("GET /events/");
  });

  it("blames the operation that produced a value the line reads", () => {
    expect(operationAt(fixture, 8, helpers)).toBe("GET /events/{eid}");
  });

  it("names none when nothing on the line leads to an operation", () => {
    expect(operationAt(fixture, 2, helpers)).toBeUndefined();
  });
});
