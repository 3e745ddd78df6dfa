import { afterEach, describe, expect, it } from "vitest";
import { createAudienceClient, PartnerAccessError, PartnerSelectionError, unwrap } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json, type RecordingServer, startRecordingServer } from "../support/recording-server.ts";

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
    // Section 7 gives no code for this case; error.auth.not_authorized is another case (raw-calls.test.ts).
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

  describe("no hidden state, no dependence on key order", () => {
    let server: RecordingServer | undefined;
    afterEach(() => server?.close());
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
    /** An IdToken whose payload is exactly this JSON text (key order included). */
    const idToken = (payloadJson: string) =>
      `${b64({ alg: "none" })}.${Buffer.from(payloadJson).toString("base64url")}.c2ln`;
    const clientFor = (payloadJson: string, extra: { partnerIdPatterns?: RegExp[] } = {}) =>
      createAudienceClient({
        baseUrl: (server as RecordingServer).url,
        session: { accessToken: "access-token-partner-test", idToken: idToken(payloadJson) },
        ...extra,
      });
    const partnerOf = async (client: ReturnType<typeof clientFor>) => {
      const result = await client.GET("/events/", {}).catch((e: unknown) => e);
      if (result instanceof Error) return result;
      return server?.requests.at(-1)?.headers["x-preferred-partner-id"];
    };

    for (const flags of ["g", "y", "gy", "gi"]) {
      it(`a partnerIdPatterns RegExp with the ${flags} flag gives the same answer to every client and every entry`, async () => {
        server = await startRecordingServer((_req, res) => json(res, 200, { items: [] }));
        const shared = new RegExp("^AB\\d+$", flags);
        const clients = [1, 2, 3].map(() =>
          clientFor(JSON.stringify({ groups: ["staff", "AB12345"] }), { partnerIdPatterns: [shared] }),
        );
        for (const client of clients) expect(await partnerOf(client)).toBe("AB12345");
        // A user of two partners is asked to choose, not sent as the first.
        const two = clientFor(JSON.stringify({ groups: ["AB1", "AB2"] }), { partnerIdPatterns: [shared] });
        const error = await partnerOf(two);
        expect(error).toBeInstanceOf(PartnerSelectionError);
        expect((error as PartnerSelectionError).candidates).toEqual(["AB1", "AB2"]);
        expect(shared.lastIndex).toBe(0); // the caller's object is not touched either
      });
    }

    for (const payload of [
      '{"cognito:groups":["partner-id-one"],"groups":["partner-id-two"]}',
      '{"groups":["partner-id-two"],"cognito:groups":["partner-id-one"]}',
      '{"b:groups":"partner-id-two","a:groups":["partner-id-one","staff"]}',
    ]) {
      it(`two groups claims naming different partners are a PartnerSelectionError, in any key order: ${payload}`, async () => {
        server = await startRecordingServer((_req, res) => json(res, 200, { items: [] }));
        const error = await partnerOf(clientFor(payload));
        expect(error).toBeInstanceOf(PartnerSelectionError);
        expect([...(error as PartnerSelectionError).candidates].sort()).toEqual(["partner-id-one", "partner-id-two"]);
        expect((error as Error).message).toMatch(/2 partners in the IdToken.s groups claims/);
        expect(server.requests).toHaveLength(0);
      });
    }

    for (const payload of [
      '{"cognito:groups":["partner-id-one"],"groups":["staff"]}',
      '{"groups":["staff"],"cognito:groups":["partner-id-one"]}',
      '{"groups":["partner-id-one"],"cognito:groups":"partner-id-one,staff"}',
    ]) {
      it(`claims that agree on one partner choose it, in any key order: ${payload}`, async () => {
        server = await startRecordingServer((_req, res) => json(res, 200, { items: [] }));
        expect(await partnerOf(clientFor(payload))).toBe("partner-id-one");
      });
    }
  });
});
