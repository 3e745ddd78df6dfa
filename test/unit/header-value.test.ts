/**
 * What becomes a header is checked once, as a value, where it enters: a partner id or token that is
 * not header text is refused with a typed error naming its source — never a raw TypeError on every
 * call, never an error quoting the token.
 */
import { afterEach, describe, expect, it } from "vitest";
import { AuthenticationError, createAudienceClient, PartnerSelectionError } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

let api: FakeApi;
afterEach(() => api?.close());

const credentials = { username: "ops@acme.test", password: "pw-header-secret" };

describe("partner ids are header text", () => {
  it.each(["partner-id-café€", "partner-id-\u0100", "partner-id-a\u0000b"])(
    "option partnerId %j is refused at construction, naming the option",
    (partnerId) => {
      expect(() => createAudienceClient({ baseUrl: "http://127.0.0.1:9/api/v3", credentials, partnerId })).toThrow(
        /option "partnerId"/,
      );
    },
  );

  it("a partner id taken from the IdToken that is not header text is a PartnerSelectionError, nothing sent", async () => {
    api = await startFakeApi({ groups: ["tenant-ünïcode€"] });
    const client = createAudienceClient({ baseUrl: api.url, credentials, partnerIdPatterns: [/^tenant-/u] });
    for (let i = 0; i < 3; i++) {
      const error = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PartnerSelectionError);
      expect(String((error as Error).message)).toMatch(/IdToken's groups claim cannot be sent/);
    }
    expect(api.calls()).toHaveLength(0);
  });
});

describe("access tokens are header text", () => {
  it.each([
    ["CR LF", "\r\nX-Injected: 1"],
    ["NUL", "\u0000"],
    ["non-Latin-1", "\u2603"],
  ])("a sign-in returning an AccessToken with %s is an AuthenticationError that does not quote it", async (_n, bad) => {
    api = await startFakeApi();
    const tokens = makeTokens();
    const access = `${tokens.AccessToken}${bad}tail`;
    api.handle((req, res) =>
      req.path === "/auth" ? json(res, 200, { ...tokens, AccessToken: access }) : json(res, 200, {}),
    );
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    const error = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(String((error as Error).message)).toMatch(/AccessToken received is not header text/);
    const text = `${String(error)} ${JSON.stringify(error)} ${(error as AuthenticationError).supportReport()}`;
    expect(text).not.toContain(tokens.AccessToken);
    expect(api.calls()).toHaveLength(0);
  });

  it("an unusable AccessToken's error does not quote the RefreshToken or IdToken that came with it", async () => {
    api = await startFakeApi();
    const tokens = makeTokens();
    api.handle((req, res) =>
      req.path === "/auth"
        ? json(res, 200, { ...tokens, AccessToken: `${tokens.AccessToken}\r\ntail` })
        : json(res, 200, {}),
    );
    const client = createAudienceClient({ baseUrl: api.url, credentials });
    const error = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    const text = `${String(error)} ${JSON.stringify(error)} ${(error as AuthenticationError).supportReport()}`;
    expect(text).not.toContain(tokens.RefreshToken);
    expect(text).not.toContain(tokens.IdToken);
    expect(api.calls()).toHaveLength(0);
  });

  it.each(["tok\u0000en-value", "tok\r\nen-value", "toké€n-value"])(
    "session.accessToken %j is refused at construction without quoting it",
    (accessToken) => {
      let message = "";
      try {
        createAudienceClient({
          baseUrl: "http://127.0.0.1:9/api/v3",
          session: { accessToken },
          partnerId: "partner-id-a",
        });
      } catch (e) {
        message = String(e);
      }
      expect(message).toMatch(/option "session\.accessToken"/);
      expect(message).not.toContain("en-value");
    },
  );
});
