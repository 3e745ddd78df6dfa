/**
 * One working draft per setup: an eid given as a number is the setup its text names (openapi-fetch
 * sends 123 as "123", and the client keeps one handle for both), so `useSetupDraft(123)` and
 * `useSetupDraft("123")` share one draft instead of autosaving two over each other.
 */
import { describe, expect, it } from "vitest";
import { createAudienceClient } from "../../src/index.ts";
import { draftStoreOf } from "../../src/react-query/draft-store.ts";

describe("the working draft of a setup", () => {
  it("is one for an eid given as a number and as its text", () => {
    const client = createAudienceClient({
      baseUrl: "http://127.0.0.1:9/api/v3",
      session: { accessToken: "a.b.c" },
      partnerId: "partner-id-acme",
    });
    const tenant = { partner: "partner-id-acme", environment: "http://127.0.0.1:9/api/v3" };
    expect(draftStoreOf(client, tenant, 123 as unknown as string)).toBe(draftStoreOf(client, tenant, "123"));
  });
});
