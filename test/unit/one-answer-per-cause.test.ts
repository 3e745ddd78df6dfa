/**
 * One cause, one class, at the session seam (Section 5): the server stops accepting the access
 * token and nothing can renew it (no refresh token, or one the server refuses). A call that was
 * sent and answered 401 ends as that answer — `{ error, response }` from the raw methods
 * (openapi-fetch's contract), an `AuthenticationError` with the 401's own request id (never the
 * refresh's) from `unwrap` and the helpers, saying why nothing could renew the token. A call never
 * sent because of that same refusal fails with the same class, in its "Not sent" form, whatever the
 * timing: never a `SessionError`, which stays for what has no HTTP answer behind it at all.
 * The family: opaque and JWT tokens, with and without an IdToken, JSON and text 401 bodies, a
 * token store, a shared session (file coordinator), calls queued behind the refresh and in flight
 * during it.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  AuthenticationError,
  createAudienceClient,
  getPartners,
  memoryTokenStore,
  SessionError,
  unwrap,
} from "../../src/index.ts";
import { fileCoordinator } from "../../src/node/index.ts";
import { json, type RecordingServer, startRecordingServer } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

let server: RecordingServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

const fast = { baseDelayMs: 1, maxDelayMs: 2, rateLimitDelayMs: [1, 2] as const };
const NOTHING_RENEWS = /the server refused the access token and nothing can renew it/;

interface Probe {
  /** 401 bodies in JSON, else text. */
  readonly jsonBody: boolean;
  /** The access token is accepted for the first `acceptFirst` calls. */
  readonly acceptFirst?: number;
  /** How long a 401 takes (calls in flight during the refresh). */
  readonly delayMs?: number;
  /** The password is refused too (a shared session signs in with one). */
  readonly signInRefused?: boolean;
}

/** A server that refuses the access token with a 401 and the refresh token with a 400. */
async function probeApi(probe: Probe) {
  let calls = 0;
  let signIns = 0;
  const t = makeTokens();
  server = await startRecordingServer(async (req, res) => {
    if (req.path === "/auth") {
      signIns += 1;
      if (probe.signInRefused && signIns > 1)
        return json(res, 400, { message: "error.auth.invalid_credentials" }, { "x-request-id": "req-sign-in" });
      return json(res, 200, t, { "x-request-id": "req-sign-in" });
    }
    if (req.path === "/auth/refresh_token") {
      await new Promise((r) => setTimeout(r, 30));
      return json(res, 400, { message: "error.auth.invalid_refresh" }, { "x-request-id": "req-refresh" });
    }
    calls += 1;
    const n = calls;
    if (n <= (probe.acceptFirst ?? 0)) return json(res, 200, { ok: true }, { "x-request-id": `req-ok-${n}` });
    if (probe.delayMs) await new Promise((r) => setTimeout(r, probe.delayMs));
    const id = { "x-request-id": `req-401-${n}` };
    if (probe.jsonBody) return json(res, 401, { message: "error.auth.invalid_token" }, id);
    res.writeHead(401, { "content-type": "text/plain", ...id });
    res.end("Unauthorized");
  });
  return {
    url: server.url,
    tokens: t,
    refreshes: () => server?.requests.filter((r) => r.path === "/auth/refresh_token").length ?? 0,
  };
}

type Client = ReturnType<typeof createAudienceClient>;
const read = (client: Client, eid: string) =>
  client.GET("/events/{eid}", { params: { path: { eid } } }).then(
    (result) => ({ sent: true as const, result }),
    (error: unknown) => ({ sent: false as const, error }),
  );

/** Every call sent ended as its 401; every call not sent failed with the "Not sent" AuthenticationError. */
async function expectOneClass(client: Client, count: number, sentBefore = 0) {
  const outcomes = await Promise.all(Array.from({ length: count }, (_, i) => read(client, `e${i}`)));
  const sentCalls = (server?.requests ?? []).filter((r) => r.path.startsWith("/events/")).length - sentBefore;
  let answered = 0;
  for (const outcome of outcomes) {
    if (outcome.sent) {
      answered += 1;
      expect(outcome.result.response.status).toBe(401);
      const error = (() => {
        try {
          return unwrap(outcome.result);
        } catch (e) {
          return e;
        }
      })() as AuthenticationError;
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(error.status).toBe(401);
      expect(error.requestId).toMatch(/^req-401-/);
      expect(error.requestId).toBe(outcome.result.response.headers.get("x-request-id"));
      expect(error.message).toMatch(NOTHING_RENEWS);
      expect(error.message).not.toMatch(/req-refresh|req-sign-in/);
    } else {
      expect(outcome.error).toBeInstanceOf(AuthenticationError);
      expect(outcome.error).not.toBeInstanceOf(SessionError);
      const error = outcome.error as AuthenticationError;
      expect(error.message).toMatch(/^Not sent: /);
      expect(error.message).toMatch(NOTHING_RENEWS);
      expect(error.status).toBe(401);
      expect(error.requestId ?? "").toMatch(/^req-401-/);
    }
  }
  expect(answered).toBe(sentCalls);
  return { answered, notSent: count - answered };
}

const opaque = () => `opaque-${Math.random().toString(36).slice(2)}-token`;

describe("a refused token nothing can renew: one class whatever the timing", () => {
  for (const jsonBody of [true, false]) {
    for (const form of ["jwt", "opaque"] as const) {
      for (const withId of [true, false]) {
        for (const renewal of ["none", "refused refresh"] as const) {
          const name = `${form} token, ${withId ? "with" : "without"} IdToken, ${jsonBody ? "JSON" : "text"} 401, ${renewal}`;
          it(`${name}: a first answered call, then 20 concurrent calls`, async () => {
            const api = await probeApi({ jsonBody, acceptFirst: 1, delayMs: 20 });
            const accessToken = form === "jwt" ? api.tokens.AccessToken : opaque();
            const client = createAudienceClient({
              baseUrl: api.url,
              retry: fast,
              ...(withId ? {} : { partnerId: "partner-id-acme" }),
              session: {
                accessToken,
                ...(withId ? { idToken: api.tokens.IdToken } : {}),
                ...(renewal === "refused refresh" ? { refreshToken: api.tokens.RefreshToken } : {}),
              },
            });
            const first = await read(client, "first");
            expect(first.sent && first.result.response.status).toBe(200);
            const { answered } = await expectOneClass(client, 20, 1);
            expect(answered).toBeGreaterThan(0);
            expect(api.refreshes()).toBeLessThanOrEqual(1);
            // Later calls send nothing and say the same.
            const before = server?.requests.length;
            await expectOneClass(
              client,
              3,
              (server?.requests ?? []).filter((r) => r.path.startsWith("/events/")).length,
            );
            expect(server?.requests.length).toBe(before);
          });
        }
      }
    }
  }

  it("sequential calls: the first answered, the rest not sent; a helper throws the same class", async () => {
    const api = await probeApi({ jsonBody: true });
    const client = createAudienceClient({
      baseUrl: api.url,
      retry: fast,
      session: {
        accessToken: api.tokens.AccessToken,
        idToken: api.tokens.IdToken,
        refreshToken: api.tokens.RefreshToken,
      },
    });
    const first = await read(client, "e1");
    expect(first.sent).toBe(true);
    const error = await getPartners(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toMatch(/^Not sent: /);
    expect((error as AuthenticationError).requestId).toBe("req-401-1");
  });

  it("a session from a token store, its refresh token refused", async () => {
    const api = await probeApi({ jsonBody: true, delayMs: 20 });
    const store = memoryTokenStore({
      accessToken: api.tokens.AccessToken,
      refreshToken: api.tokens.RefreshToken,
      idToken: api.tokens.IdToken,
    });
    const client = createAudienceClient({ baseUrl: api.url, retry: fast, tokenStore: store });
    const { answered } = await expectOneClass(client, 20);
    expect(answered).toBeGreaterThan(0);
  });

  it("a shared session (file coordinator): token refused, refresh refused, password refused", async () => {
    dir = await mkdtemp(join(tmpdir(), "one-answer-"));
    const api = await probeApi({ jsonBody: false, delayMs: 20, signInRefused: true });
    const client = createAudienceClient({
      baseUrl: api.url,
      retry: fast,
      credentials: { username: "ops@acme.test", password: "pw-one-answer-secret" },
      coordinator: fileCoordinator({ directory: dir }),
    });
    const { answered } = await expectOneClass(client, 20);
    expect(answered).toBeGreaterThan(0);
    // The refused password is sent once, never again (Section 8.5).
    expect(server?.requests.filter((r) => r.path === "/auth")).toHaveLength(2);
  });
});
