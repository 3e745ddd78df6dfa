/**
 * Full contract coverage: every operation of generated/openapi.json is called through the client
 * against Prism (request validation on). The list comes from the description; an operation
 * without a sample call here fails the suite, naming it.
 */
import { describe, expect, inject, it } from "vitest";
import { operations } from "../../generated/operations.ts";
import { sampleCalls } from "../../scripts/lib/sample-calls.ts";
import { type AudienceClient, createAudienceClient } from "../../src/index.ts";
import { makeZip, minimalXlsxEntries } from "../support/make-zip.ts";

const SAMPLES = sampleCalls({ eid: "evt-1001", xlsx: () => makeZip(minimalXlsxEntries()) });

function makeClient(): AudienceClient {
  const url = inject("prismUrl");
  return createAudienceClient({
    baseUrl: url,
    mediaUrl: url,
    credentials: { username: "demo", password: "demo-password" },
    adPlatform: "meta",
  });
}

describe("every operation of the description against Prism", () => {
  it("has a sample call for each operation (a new operation without one fails here, by name)", () => {
    const missing = operations.map((op) => `${op.method} ${op.path}`).filter((key) => !(key in SAMPLES));
    const stale = Object.keys(SAMPLES).filter((key) => !operations.some((op) => `${op.method} ${op.path}` === key));
    expect(missing, `operations without a contract test: ${missing.join(", ")}`).toEqual([]);
    expect(stale, `samples for operations no longer in the description: ${stale.join(", ")}`).toEqual([]);
  });

  const client = makeClient();
  it.each(operations.map((op) => [`${op.method} ${op.path}`, op] as const))("%s", async (key, op) => {
    const init = SAMPLES[key];
    if (!init) return; // reported by the coverage test above
    const result = await client.request(op.method.toLowerCase() as "get", op.path as never, init as never);
    const { response } = result as { response: Response };
    expect(response.headers.get("sl-violations"), `Prism reported violations for ${key}`).toBeNull();
    expect(response.status, `${key} answered ${response.status}`).toBeLessThan(300);
    expect(response.headers.get("x-request-id")).toBeTruthy();
  });
});
