import { afterEach, describe, expect, it } from "vitest";
import { createAudienceClient, PartnerAccessError, PartnerSelectionError, unwrap } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json } from "../support/recording-server.ts";

let api: FakeApi;
afterEach(() => api?.close());
const credentials = { username: "ops@acme.test", password: "pw-partner" };

describe("partner selection (Section 5.3, 5.5)", () => {
  it("uses the single partner id of the groups claim", async () => {
    api = await startFakeApi({ groups: ["staff", "partner-id-solo"] });
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    await client.GET("/events/", {});
    expect(api.calls()[0]?.headers["x-preferred-partner-id"]).toBe("partner-id-solo");
    expect(client.partnerId()).toBe("partner-id-solo");
  });

  it("several partners: PartnerSelectionError listing them, before any authenticated call", async () => {
    api = await startFakeApi({ groups: ["partner-id-one", "partner-id-two"] });
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    const error = await client.GET("/events/", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartnerSelectionError);
    expect((error as PartnerSelectionError).candidates).toEqual(["partner-id-one", "partner-id-two"]);
    expect(api.calls()).toHaveLength(0);
  });

  it("no partner in the claim: a clear error; an explicit partnerId or pattern fixes it", async () => {
    api = await startFakeApi({ groups: ["staff", "AB12345"] });
    const none = createAudienceClient({ baseUrl: api.url, credentials });
    await expect(none.GET("/events/", {})).rejects.toThrow(/No partner id in the IdToken's groups claim/);
    const prefixed = createAudienceClient({ baseUrl: api.url, credentials, partnerIdPatterns: [/^AB\d+$/] });
    await prefixed.GET("/events/", {});
    expect(api.calls().at(-1)?.headers["x-preferred-partner-id"]).toBe("AB12345");
  });

  it("refuses partner ids with whitespace or CR/LF", () => {
    for (const bad of ["partner-id-a\r\nX-Evil: 1", "partner id", " ", ""]) {
      expect(() =>
        createAudienceClient({ baseUrl: "https://api.example.test/api/v3", credentials, partnerId: bad }),
      ).toThrow(TypeError);
    }
  });

  it("a 403 is a PartnerAccessError saying the token is valid but the partner header is wrong", async () => {
    api = await startFakeApi();
    // Section 7 gives no code for this case; error.auth.not_authorized is another case (item 9, raw-calls.test.ts).
    api.route((_req, res) => json(res, 403, { message: "Forbidden" }, { "x-request-id": "req-403" }));
    const client = createAudienceClient({ baseUrl: api.url, credentials, partnerId: "partner-id-wrong" });
    const error = await client
      .GET("/events/", {})
      .then(unwrap)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartnerAccessError);
    expect(error).toMatchObject({
      status: 403,
      code: undefined,
      requestId: "req-403",
      partnerId: "partner-id-wrong",
    });
    expect((error as Error).message).toMatch(
      /token is valid but X-Preferred-Partner-Id \(partner-id-wrong\) is missing or wrong/,
    );
  });
});
