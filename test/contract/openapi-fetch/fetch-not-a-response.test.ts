/**
 * Every edge gives a typed error: a `fetch` (the client's option or a call's own) that resolves to
 * something that is not a Response — undefined, null, a plain object, a Response-like object a mock
 * built by hand — is a bug in the caller's code. The call ends at once (another attempt would get
 * the same), as a NetworkError built by the one factory of failures: method, path, attempts, the
 * redacted request, a message naming the fix, the underlying TypeError as `cause`. Never a raw
 * TypeError, never retried. A Response of another realm (an npm undici's own class) is a Response.
 */
import { describe, expect, it, vi } from "vitest";
import { createAudienceClient, isAudienceError, NetworkError } from "../../../src/index.ts";
import { makeTokens } from "../../support/tokens.ts";

const tokens = makeTokens();
const BASE_URL = "http://127.0.0.1:9/api/v3";
const session = { accessToken: tokens.AccessToken, idToken: tokens.IdToken };

const NOT_RESPONSES: Array<[string, unknown]> = [
  ["undefined", undefined],
  ["null", null],
  ["a plain object", {}],
  ["a string", "ok"],
  [
    "a Response-like object",
    { ok: true, status: 200, headers: new Headers({ "content-type": "application/json" }), json: async () => ({}) },
  ],
];

function expectTyped(error: unknown, method: string, path: string): void {
  expect(error).toBeInstanceOf(NetworkError);
  expect(isAudienceError(error)).toBe(true);
  const e = error as NetworkError;
  expect(e.message).toMatch(/fetch returned (undefined|null|an object|string|number), not a Response: /);
  expect(e.method).toBe(method);
  expect(e.path).toBe(path);
  expect(e.attempts).toBe(1);
  expect(e.request?.headers.authorization).toBe("Bearer [REDACTED]");
  expect(e.cause).toBeInstanceOf(Error);
  expect(`${String(e)} ${JSON.stringify(e)} ${e.supportReport()}`).not.toContain(tokens.AccessToken);
}

describe("a fetch that resolves to something that is not a Response", () => {
  it.each(NOT_RESPONSES)(
    "the client's fetch option returning %s: a NetworkError with context, once",
    async (_n, value) => {
      const fetch = vi.fn(async () => value as Response);
      const client = createAudienceClient({ baseUrl: BASE_URL, fetch, session });
      const error = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch((e: unknown) => e);
      expectTyped(error, "GET", "/events/{eid}");
      expect(fetch).toHaveBeenCalledTimes(1);
    },
  );

  it.each(NOT_RESPONSES)("a call's own fetch returning %s: the same", async (_n, value) => {
    const fetch = vi.fn(async () => value as Response);
    const client = createAudienceClient({ baseUrl: BASE_URL, session });
    const error = await client
      .PUT("/setup_processes/{eid}", {
        params: { path: { eid: "e1" } },
        body: { goal: "ROAS", total_budget: 1 },
        fetch,
      })
      .catch((e: unknown) => e);
    expectTyped(error, "PUT", "/setup_processes/{eid}");
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("the runtime's fetch patched by a test tool to resolve to undefined: the same", async () => {
    const spy = vi.spyOn(globalThis, "fetch").mockResolvedValue(undefined as unknown as Response);
    try {
      const client = createAudienceClient({ baseUrl: BASE_URL, session });
      const error = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch((e: unknown) => e);
      expectTyped(error, "GET", "/events/{eid}");
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });

  it("a sign-in through such a fetch: a typed error too, not a raw TypeError", async () => {
    const fetch = vi.fn(async () => undefined as unknown as Response);
    const client = createAudienceClient({
      baseUrl: BASE_URL,
      fetch,
      credentials: { username: "ops@acme.test", password: "pw-not-a-response" },
    });
    const error = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch((e: unknown) => e);
    expect(isAudienceError(error)).toBe(true);
    expect(String((error as Error).message)).toMatch(/not a Response/);
    expect(String(error)).not.toContain("pw-not-a-response");
  });

  it("a Response of another class (another realm's, branded Response) is used as a Response", async () => {
    class OtherRealmResponse extends Response {}
    const fetch = vi.fn(
      async () =>
        new OtherRealmResponse(JSON.stringify({ id: "e1" }), { headers: { "content-type": "application/json" } }),
    );
    const client = createAudienceClient({ baseUrl: BASE_URL, fetch, session });
    const { data } = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    expect(data).toEqual({ id: "e1" });
  });
});

/**
 * A Response of status 0 has nothing to read. A mock stands for a network failure with
 * `Response.error()` (as the Fetch standard's network error is one); a page's call given
 * `mode: "no-cors"` gets an opaque one (the Fetch standard also drops the Authorization and partner
 * headers from such a request). Each was a NetworkError quoting the runtime's "init["status"] must
 * be in the range of 200 to 599" (the body was copied into a new Response), retried.
 */
describe("a Response that has nothing to read (status 0)", () => {
  const read = (client: ReturnType<typeof createAudienceClient>) =>
    client.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch((e: unknown) => e);
  const ok = () => new Response(JSON.stringify({ id: "e1" }), { headers: { "content-type": "application/json" } });

  it("Response.error(): a network failure, retried like one, and said plainly", async () => {
    const fetch = vi.fn(async () => Response.error());
    const client = createAudienceClient({ baseUrl: BASE_URL, fetch, session, retry: { maxAttempts: 2 } });
    const error = (await read(client)) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toMatch(/network error: fetch resolved to Response\.error\(\) after 2 attempt/);
    expect(error.message).not.toMatch(/200 to 599|init\[/);
    expect(fetch).toHaveBeenCalledTimes(2);
    fetch.mockResolvedValueOnce(Response.error()).mockImplementation(async () => ok());
    const { data } = (await read(client)) as { data: unknown };
    expect(data).toEqual({ id: "e1" });
  });

  it('an opaque response (mode: "no-cors"): a NetworkError naming the mode, at once, not retried', async () => {
    const opaque = () => Object.defineProperty(Response.error(), "type", { value: "opaque" });
    const fetch = vi.fn(async () => opaque());
    const client = createAudienceClient({ baseUrl: BASE_URL, fetch, session });
    const error = (await read(client)) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toMatch(/opaque response .*"no-cors".* after 1 attempt/);
    expect(error.message).not.toMatch(/200 to 599|init\[/);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
