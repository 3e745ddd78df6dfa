/**
 * Token lifetimes are judged in server time, arrival included (Section 5.2: `exp` is the server's).
 * A sign-in or refresh whose AccessToken expired before the response's own `Date` is not sent: the
 * server would refuse it on every call. It is refreshed once, before any call uses it, with the
 * refresh token the same answer carried; when the refreshed token is expired too, the calls fail
 * with a SessionError saying the server's tokens are expired on arrival, and /auth is not asked
 * again for a minute (Section 8.5: its budget is the tightest). "Expired on arrival" is a clock matter (the token is used, and the
 * server that just issued it judges) only when the server's clock is unknown: no `Date`, ever.
 */
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { AuthenticationError, createAudienceClient, SessionError } from "../../src/index.ts";
import { json, type RecordedRequest, type RecordingServer, startRecordingServer } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

let server: RecordingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const credentials = { username: "ops@acme.test", password: "pw-arrival-secret" };
const read = (client: ReturnType<typeof createAudienceClient>) =>
  client.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch((e: unknown) => e);

/** A server whose clock is `offsetMs` from ours, issuing tokens that expire `lifeMs` from its now. */
async function api(options: {
  offsetMs: number;
  lifeMs: number;
  sendDate: boolean;
  /** Lifetime of the refresh's tokens, when it differs from the sign-in's. */
  refreshLifeMs?: number;
  /** The refresh is refused (400). */
  refreshRefused?: boolean;
}) {
  const serverNow = () => Date.now() + options.offsetMs;
  let signIns = 0; // sign-ins and refreshes: /auth's budget
  const refused: string[] = [];
  const handler = (req: RecordedRequest, res: ServerResponse) => {
    res.sendDate = false;
    const date = options.sendDate ? { date: new Date(serverNow()).toUTCString() } : {};
    if (req.path === "/auth" || req.path === "/auth/refresh_token") {
      signIns += 1;
      const refresh = req.path === "/auth/refresh_token";
      if (refresh && options.refreshRefused) return json(res, 400, { message: "error.auth.invalid_refresh" }, date);
      const life = refresh ? (options.refreshLifeMs ?? options.lifeMs) : options.lifeMs;
      const expSeconds = Math.floor((serverNow() + life) / 1000);
      return json(res, 200, makeTokens({ expSeconds }), { ...date, "x-request-id": `auth-${signIns}` });
    }
    const token = String(req.headers.authorization).replace(/^Bearer /, "");
    const exp = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()).exp as number;
    if (exp * 1000 <= serverNow()) {
      refused.push(req.path);
      return json(res, 401, { message: "token expired" }, date);
    }
    return json(res, 200, { eid: "e1" }, date);
  };
  server = await startRecordingServer(handler);
  const posts = (path: string) => server?.requests.filter((r) => r.path === path).length ?? 0;
  return { url: server.url, signIns: () => signIns, refused, posts };
}

describe("expired on arrival, judged in server time", () => {
  it("a sign-in whose AccessToken expired 30 s before the response's Date: refreshed once, before any call uses it", async () => {
    const fake = await api({ offsetMs: 0, lifeMs: -30_000, refreshLifeMs: 3_600_000, sendDate: true });
    const client = createAudienceClient({ baseUrl: fake.url, credentials });
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => read(client)));
    for (const outcome of outcomes) expect((outcome as { response: Response }).response.status).toBe(200);
    expect(fake.refused).toEqual([]);
    expect(fake.posts("/auth")).toBe(1);
    expect(fake.posts("/auth/refresh_token")).toBe(1);
  });

  it("a refresh whose AccessToken expired on arrival: refreshed once more with the refresh token it carried", async () => {
    const fake = await api({ offsetMs: 0, lifeMs: 3_600_000, sendDate: true });
    const client = createAudienceClient({ baseUrl: fake.url, credentials });
    expect(((await read(client)) as { response: Response }).response.status).toBe(200);
    // The server refuses the token now; its first refresh answers an expired token, the next a live one.
    let refreshes = 0;
    const original = fake.refused.length;
    server?.handle((req, res) => {
      if (req.path === "/auth/refresh_token") {
        refreshes += 1;
        const expSeconds = Math.floor((Date.now() + (refreshes === 1 ? -30_000 : 3_600_000)) / 1000);
        return json(res, 200, makeTokens({ expSeconds }), { date: new Date().toUTCString() });
      }
      const token = String(req.headers.authorization).replace(/^Bearer /, "");
      const exp = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()).exp as number;
      if (refreshes === 0 || exp * 1000 <= Date.now()) return json(res, 401, { message: "token refused" });
      return json(res, 200, { eid: "e1" });
    });
    expect(((await read(client)) as { response: Response }).response.status).toBe(200);
    expect(refreshes).toBe(2);
    expect(fake.refused.length).toBe(original);
  });

  it("the refreshed token expired too: a SessionError saying the tokens are expired on arrival, and /auth is not asked again", async () => {
    const fake = await api({ offsetMs: 0, lifeMs: -30_000, sendDate: true });
    const client = createAudienceClient({ baseUrl: fake.url, credentials });
    const outcome = await read(client);
    expect(outcome).toBeInstanceOf(SessionError);
    expect(outcome).not.toBeInstanceOf(AuthenticationError);
    expect(String((outcome as Error).message)).toMatch(/expired on arrival/);
    expect(String((outcome as Error).message)).not.toMatch(/Authentication failed/);
    expect(fake.refused).toEqual([]); // before: five calls sent with it, five 401s
    expect(fake.posts("/auth")).toBe(1);
    expect(fake.posts("/auth/refresh_token")).toBe(1);
    // Calls for the next 3 s do not spend /auth's budget again (Section 8.5): before, 5 sign-ins.
    const until = Date.now() + 3_000;
    while (Date.now() < until) {
      expect(await read(client)).toBeInstanceOf(SessionError);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(fake.posts("/auth")).toBe(1);
    expect(fake.posts("/auth/refresh_token")).toBe(1);
  });

  it("the refresh after an expired sign-in is refused: no second sign-in with the password", async () => {
    const fake = await api({ offsetMs: 0, lifeMs: -30_000, sendDate: true, refreshRefused: true });
    const client = createAudienceClient({ baseUrl: fake.url, credentials });
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => read(client)));
    for (const outcome of outcomes) expect(outcome).toBeInstanceOf(AuthenticationError);
    expect(await read(client)).toBeInstanceOf(AuthenticationError);
    expect(fake.posts("/auth")).toBe(1);
    expect(fake.posts("/auth/refresh_token")).toBe(1);
    expect(fake.refused).toEqual([]);
  });

  it("the same with the client's clock an hour fast: the response's Date judges, not the local clock", async () => {
    // The server's clock is an hour behind ours: its tokens look long expired locally, but live.
    const fake = await api({ offsetMs: -3_600_000, lifeMs: 3_600_000 - 60_000, sendDate: true });
    const client = createAudienceClient({ baseUrl: fake.url, credentials });
    const { response } = (await read(client)) as { response: Response };
    expect(response.status).toBe(200);
    expect(fake.refused).toEqual([]);
  });

  it("with the server's clock unknown (no Date, ever), a token that looks expired is a clock matter: it is used", async () => {
    // Our clock is ahead of the server's by two minutes; its token lives one more minute there.
    const fake = await api({ offsetMs: -120_000, lifeMs: 60_000, sendDate: false });
    const client = createAudienceClient({ baseUrl: fake.url, credentials });
    const { response } = (await read(client)) as { response: Response };
    expect(response.status).toBe(200);
    expect(fake.signIns()).toBe(1);
  });
});
