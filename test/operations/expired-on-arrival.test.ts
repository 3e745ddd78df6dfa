/**
 * Token lifetimes are judged in server time, arrival included (Section 5.2: `exp` is the server's).
 * A sign-in whose AccessToken expired before the response's own `Date` is not sent: the server
 * would refuse it on every call. "Expired on arrival" is a clock matter (the token is used, and the
 * server that just issued it judges) only when the server's clock is unknown: no `Date`, ever.
 */
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { AuthenticationError, createAudienceClient } from "../../src/index.ts";
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
async function api(options: { offsetMs: number; lifeMs: number; sendDate: boolean }) {
  const serverNow = () => Date.now() + options.offsetMs;
  let signIns = 0; // sign-ins and refreshes: /auth's budget
  const refused: string[] = [];
  const handler = (req: RecordedRequest, res: ServerResponse) => {
    res.sendDate = false;
    const date = options.sendDate ? { date: new Date(serverNow()).toUTCString() } : {};
    if (req.path === "/auth" || req.path === "/auth/refresh_token") {
      signIns += 1;
      const expSeconds = Math.floor((serverNow() + options.lifeMs) / 1000);
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
  return { url: server.url, signIns: () => signIns, refused };
}

describe("expired on arrival, judged in server time", () => {
  it("a sign-in whose AccessToken expired 30 s before the response's Date: not sent, an AuthenticationError", async () => {
    const fake = await api({ offsetMs: 0, lifeMs: -30_000, sendDate: true });
    const client = createAudienceClient({ baseUrl: fake.url, credentials });
    const outcome = await read(client);
    expect(outcome).toBeInstanceOf(AuthenticationError);
    expect(String((outcome as Error).message)).toMatch(/expired .*before the response's own Date/);
    expect(fake.refused).toEqual([]); // before: five calls sent with it, five 401s
    expect(fake.signIns()).toBe(1);
    // A second call at once does not spend /auth's budget again (Section 8.5).
    expect(await read(client)).toBeInstanceOf(AuthenticationError);
    expect(fake.signIns()).toBe(1);
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
