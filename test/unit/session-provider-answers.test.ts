/**
 * What a session provider may answer, and when: every answer that is not a usable session is a
 * SessionError that names the field (never the token), nothing is sent, the provider is not asked in
 * a loop, and the client stays usable; an answer that comes late never undoes a newer session.
 */
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { AudienceError, createAudienceClient, SessionError } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json, type RecordedRequest } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const partnerId = "partner-id-acme";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const read = (client: ReturnType<typeof createAudienceClient>, eid = "e1") =>
  client.GET("/events/{eid}", { params: { path: { eid } } });
const bearer = (req: RecordedRequest) => String(req.headers.authorization ?? "").replace(/^Bearer /, "");

async function okApi() {
  api = await startFakeApi();
  api.route((_req: RecordedRequest, res: ServerResponse) => json(res, 200, { ok: true }));
  return api;
}

describe("a provider's answer that is not a session", () => {
  const good = makeTokens();
  const cases: Array<[string, unknown, RegExp]> = [
    ["null", null, /session provider/],
    ["a string", good.AccessToken, /session provider/],
    ["an object without accessToken", { idToken: good.IdToken }, /accessToken/],
    ["accessToken a number", { accessToken: 42 }, /accessToken/],
    ["accessToken empty", { accessToken: "" }, /accessToken/],
    ["idToken with a line break", { accessToken: good.AccessToken, idToken: `${good.IdToken}\r\nx: y` }, /idToken/],
    ["accessToken outside Latin-1", { accessToken: `${good.AccessToken}\u2028` }, /accessToken/],
  ];
  for (const [name, answer, field] of cases) {
    it(`${name}: a SessionError naming it, nothing sent, asked once, the client usable after`, async () => {
      await okApi();
      let asked = 0;
      let fixed = false;
      const client = createAudienceClient({
        baseUrl: (api as FakeApi).url,
        partnerId,
        session: async () => {
          asked += 1;
          return (fixed ? { accessToken: good.AccessToken } : answer) as { accessToken: string };
        },
      });
      const errors = await Promise.all([read(client), read(client)].map((p) => p.catch((e: unknown) => e)));
      for (const error of errors) {
        expect(error).toBeInstanceOf(SessionError);
        const text = `${(error as Error).message} ${String((error as Error).cause)}`;
        expect(text).toMatch(field);
        expect(text).not.toContain(good.AccessToken);
        expect(text).not.toContain(good.IdToken);
      }
      expect(asked).toBe(1);
      expect(api?.calls()).toHaveLength(0);
      fixed = true;
      await sleep(1_100);
      expect((await read(client)).response.status).toBe(200);
      expect(asked).toBe(2);
    });
  }

  it("an already expired token: sent at most once (the API judges exp), then a typed failure, never a loop", async () => {
    // A token that looks expired on arrival is a clock matter (session/held-tokens.ts): the API,
    // whose clock `exp` is read on (Section 5.2), is the judge; its 401 asks the provider once more.
    api = await startFakeApi();
    api.route((req, res) => {
      const exp = JSON.parse(Buffer.from(bearer(req).split(".")[1] ?? "", "base64url").toString()).exp as number;
      return exp * 1000 <= Date.now() ? json(res, 401, { message: "error.auth.expired" }) : json(res, 200, {});
    });
    let asked = 0;
    const expired = makeTokens({ expSeconds: Math.floor(Date.now() / 1000) - 60 }).AccessToken;
    const client = createAudienceClient({
      baseUrl: api.url,
      partnerId,
      session: async () => {
        asked += 1;
        return { accessToken: expired };
      },
    });
    const outcome = await read(client).catch((e: unknown) => e);
    // The answered call is the API's 401 (an HTTP answer), or a SessionError if nothing was sent.
    if (outcome instanceof AudienceError) expect(outcome.message).not.toContain(expired);
    else expect((outcome as { response: Response }).response.status).toBe(401);
    expect(api.calls().length).toBeLessThanOrEqual(1);
    await sleep(300);
    expect(asked).toBeLessThanOrEqual(2);
    expect(api.calls().length).toBeLessThanOrEqual(1);
  });
});

describe("a provider's answer and the calls around it", () => {
  it("a 401 to every token: asked once more for the call, then a typed failure, never a loop", async () => {
    api = await startFakeApi();
    api.route((_req, res) => json(res, 401, { message: "error.auth.invalid_token" }));
    let asked = 0;
    const client = createAudienceClient({
      baseUrl: api.url,
      partnerId,
      session: async () => {
        asked += 1;
        return { accessToken: makeTokens().AccessToken };
      },
    });
    // A call sent and answered 401 ends as that answer (the raw method's result, as openapi-fetch's).
    const outcome = await read(client);
    expect(outcome.response.status).toBe(401);
    expect(outcome.error).toMatchObject({ message: "error.auth.invalid_token" });
    expect(asked).toBe(2);
    expect(api.calls()).toHaveLength(2);
    await sleep(300);
    expect(asked).toBe(2);
  });

  it("useSession while the provider is being asked: the explicit session wins over the late answer", async () => {
    await okApi();
    const late = makeTokens().AccessToken;
    const explicit = makeTokens().AccessToken;
    const client = createAudienceClient({
      baseUrl: (api as FakeApi).url,
      partnerId,
      session: async () => {
        await sleep(200);
        return { accessToken: late };
      },
    });
    const first = read(client, "first");
    await sleep(50);
    client.useSession({ accessToken: explicit });
    await first.catch(() => undefined);
    await read(client, "second");
    const sent = api?.calls().filter((r) => /\/(first|second)$/.test(r.path)) ?? [];
    expect(sent.map(bearer)).toEqual(sent.map(() => explicit));
  });

  it("useSession while a sign-in is under way: the explicit session wins over the sign-in's answer", async () => {
    api = await startFakeApi({ signInDelayMs: 200 });
    api.route((_req, res) => json(res, 200, { ok: true }));
    const explicit = makeTokens().AccessToken;
    const client = createAudienceClient({
      baseUrl: api.url,
      partnerId,
      credentials: { username: "ops@acme.test", password: "pw-race-secret" },
    });
    const first = read(client, "first");
    await sleep(50);
    client.useSession({ accessToken: explicit });
    await first.catch(() => undefined);
    await read(client, "second");
    const sent = api.calls().filter((r) => /\/(first|second)$/.test(r.path));
    expect(sent.map(bearer)).toEqual(sent.map(() => explicit));
  });

  it("an answer that comes after the call was aborted is kept: the next call does not ask again", async () => {
    await okApi();
    let asked = 0;
    const client = createAudienceClient({
      baseUrl: (api as FakeApi).url,
      partnerId,
      session: async () => {
        asked += 1;
        await sleep(150);
        return { accessToken: makeTokens().AccessToken };
      },
    });
    const aborted = await client
      .GET("/events/{eid}", { params: { path: { eid: "e1" } }, signal: AbortSignal.timeout(30) })
      .catch((e: unknown) => e);
    expect(aborted).toBeInstanceOf(Error);
    await sleep(200);
    expect((await read(client)).response.status).toBe(200);
    expect(asked).toBe(1);
    expect(api?.calls()).toHaveLength(1);
  });

  it("concurrent client.accessToken() callers with a provider: asked once, the same token to all", async () => {
    await okApi();
    let asked = 0;
    const t = makeTokens();
    const client = createAudienceClient({
      baseUrl: (api as FakeApi).url,
      partnerId,
      session: async () => {
        asked += 1;
        await sleep(50);
        return { accessToken: t.AccessToken };
      },
    });
    const all = await Promise.all(Array.from({ length: 10 }, () => client.accessToken()));
    expect(asked).toBe(1);
    for (const held of all) expect(held).toMatchObject({ accessToken: t.AccessToken, partnerId });
  });
});
