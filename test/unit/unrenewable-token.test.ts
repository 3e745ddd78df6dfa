/**
 * A client given only an access token (no refresh token, no credentials) whose token the server
 * refuses with a 401 before it expires: nothing can renew it. openapi-fetch's contract holds — the
 * 401 comes back as `{ error, response }` like every HTTP error — and what the client says is true:
 * the server refused the token and nothing can renew it, not "the token has expired". Helpers
 * (through `unwrap`) throw the same AuthenticationError with the same message. Later calls do not
 * send the refused token again (Section 5.8: the session is cached; a refused one is not reused):
 * they fail with the same class, an AuthenticationError in its "Not sent" form carrying the 401's
 * request id (one cause, one class). A token that expired (no HTTP answer) is a SessionError.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  ApiError,
  AuthenticationError,
  createAudienceClient,
  getPartners,
  SessionError,
  unwrap,
} from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

let api: FakeApi;
afterEach(() => api?.close());

const REFUSED = /the server refused the access token and nothing can renew it/;

async function refusingApi(): Promise<FakeApi> {
  const server = await startFakeApi();
  server.route((_req, res) => json(res, 401, { message: "error.auth.invalid_token" }, { "x-request-id": "req-401" }));
  return server;
}

describe("a 401 nothing can renew (only an access token was given)", () => {
  it("comes back as { error, response } with one request, no sign-in and no refresh", async () => {
    api = await refusingApi();
    const tokens = makeTokens(); // valid for an hour: not expired
    const client = createAudienceClient({
      baseUrl: api.url,
      session: { accessToken: tokens.AccessToken, idToken: tokens.IdToken },
    });
    const result = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    expect(result.response.status).toBe(401);
    expect(result.error).toEqual({ message: "error.auth.invalid_token" });
    expect(api.calls()).toHaveLength(1);
    expect(api.signIns()).toBe(0);
    expect(api.refreshes()).toBe(0);

    const error = (() => {
      try {
        return unwrap(result);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toMatch(REFUSED);
    expect((error as Error).message).not.toMatch(/expired/);
    expect((error as AuthenticationError).requestId).toBe("req-401");
  });

  it("a helper throws the same AuthenticationError; a later call says the same (the same class, not sent) without sending the token", async () => {
    api = await refusingApi();
    const tokens = makeTokens();
    const client = createAudienceClient({
      baseUrl: api.url,
      session: { accessToken: tokens.AccessToken, idToken: tokens.IdToken },
    });
    const first = await getPartners(client).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(AuthenticationError);
    expect((first as Error).message).toMatch(REFUSED);
    expect(api.calls()).toHaveLength(1);

    const later = await client.GET("/events/{eid}", { params: { path: { eid: "e2" } } }).catch((e: unknown) => e);
    expect(later).toBeInstanceOf(AuthenticationError);
    expect(later).not.toBeInstanceOf(SessionError);
    expect((later as Error).message).toMatch(/^Not sent: /);
    expect((later as AuthenticationError).requestId).toBe("req-401");
    expect((later as Error).message).toMatch(REFUSED);
    expect((later as Error).message).not.toMatch(/expired/);
    expect(api.calls()).toHaveLength(1);
  });

  it("a token that did expire still says so", async () => {
    api = await refusingApi();
    const expired = makeTokens({ expSeconds: Math.floor(Date.now() / 1000) - 10 });
    const client = createAudienceClient({
      baseUrl: api.url,
      session: { accessToken: expired.AccessToken, idToken: expired.IdToken },
    });
    const error = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionError);
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as Error).message).toMatch(/has expired/);
    expect(api.calls()).toHaveLength(0);
  });
});
