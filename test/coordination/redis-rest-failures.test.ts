/**
 * The Redis coordinator over REST when the REST front fails: unreachable, refusing the token (401),
 * failing (500), answering what is not the protocol's JSON, redirecting, or too slow. Each means
 * "Redis is away", as a dead Redis does over TCP: the turn goes on at the fair share and
 * `onUnavailable` is told once with a RedisUnavailable; the token is in no message, in any encoding,
 * and goes to the configured origin only. NOSCRIPT is not Redis being away: the script is resent
 * with EVAL over REST too.
 */
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RestRedisOptions, redisCoordinator, restRedis } from "../../src/redis/index.ts";
import { interactiveTurn, partnerKey } from "../support/partner-keys.ts";
import { type RedisServer, redisUnavailable, startRedis } from "../support/redis.ts";
import { type RestFront, startRestFront } from "../support/redis-rest.ts";
import { EVERY_ENCODING, echoForms, findSecret } from "../support/secret-forms.ts";

const skip = redisUnavailable();
const TOKEN = `AZ${EVERY_ENCODING}rest-${randomUUID()}`;
let redis: RedisServer;
let front: RestFront;
beforeAll(async () => {
  if (skip) return;
  redis = await startRedis();
  front = await startRestFront(await redis.ready(redis.client()), TOKEN);
});
const opened: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  await Promise.all(opened.map((coordinator) => coordinator.close()));
  await front?.close();
  await redis?.stop();
});

const request = interactiveTurn;
const key = () => partnerKey();

/** Every text the coordinator produced that a log could hold. */
const said: string[] = [];
const leaks = () => said.map((text) => findSecret(text, TOKEN)).filter(Boolean);

function open(options: Partial<RestRedisOptions> = {}, commandTimeoutMs = 250) {
  const away: Error[] = [];
  const connection = restRedis({ url: front.url, token: TOKEN, ...options });
  said.push(inspect(connection), JSON.stringify(connection), String(connection));
  const coordinator = redisCoordinator({
    redis: connection,
    keyPrefix: `rest-failures-${randomUUID()}:`,
    commandTimeoutMs,
    onUnavailable: (error) => {
      away.push(error);
      said.push(error.message, String(error.stack), inspect(error));
    },
  });
  opened.push(coordinator);
  return { coordinator, away };
}

/** The turn went on at the fair share within `ms`, and onUnavailable was told once, saying `message`. */
async function expectFairShare(coordinator: ReturnType<typeof open>, message: RegExp, ms = 2_000): Promise<void> {
  const started = performance.now();
  const turn = await coordinator.coordinator.partner(key()).turn(request);
  expect(performance.now() - started).toBeLessThan(ms);
  turn.done({ kind: "admitted" });
  expect(coordinator.away.map((e) => e.name)).toEqual(["RedisUnavailable"]);
  expect(coordinator.away[0]?.message).toMatch(message);
}

/** A server on 127.0.0.1 that answers every request with `handler`. */
async function server(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const s = createServer(handler);
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, server: s };
}
const close = (s: Server) =>
  new Promise<void>((resolve) => {
    s.closeAllConnections();
    s.close(() => resolve());
  });

describe.skipIf(skip)("a REST front that fails means Redis is away: the fair share", () => {
  it("unreachable (nothing listens on the port)", async () => {
    const gone = await server(() => undefined);
    await close(gone.server);
    await expectFairShare(open({ url: gone.url }), /Redis command failed: TypeError$/);
  });

  it("401: the token is refused", async () => {
    await expectFairShare(open({ token: "not-the-token" }), /HTTP 401$/);
  });

  it.each([
    ["500", 500, '{"error":"internal"}'],
    ["503 with an HTML page", 503, "<html>down</html>"],
    ["200 with garbage", 200, "{not json"],
    ["200 with JSON but no result", 200, '{"status":"ok"}'],
    ["200 with an array", 200, '["ok"]'],
    ["302 redirect", 302, ""],
  ])("%s", async (_, status, body) => {
    front.answer = (_req, res) => {
      res.writeHead(status, { location: "http://127.0.0.1:1/", "content-type": "application/json" }).end(body);
      return true;
    };
    try {
      await expectFairShare(open(), /Redis REST answered/);
    } finally {
      front.answer = undefined;
    }
  });

  it("slow: the command times out and its request is aborted", async () => {
    let aborted = 0;
    front.answer = (req) => {
      req.socket.once("close", () => aborted++);
      return true; // never answers
    };
    try {
      await expectFairShare(open({}, 100), /no answer from Redis within 100 ms/, 1_000);
      await expect.poll(() => aborted, { timeout: 2_000 }).toBeGreaterThan(0);
    } finally {
      front.answer = undefined;
    }
  });

  it("a redirect is not followed: the token reaches the configured origin only", async () => {
    const elsewhere: Array<string | undefined> = [];
    const other = await server((req, res) => {
      elsewhere.push(req.headers.authorization);
      res.writeHead(200, { "content-type": "application/json" }).end('{"result":"PONG"}');
    });
    front.answer = (_req, res) => {
      res.writeHead(307, { location: `${other.url}/` }).end();
      return true;
    };
    try {
      await expectFairShare(open(), /HTTP 307$/);
      expect(elsewhere).toEqual([]);
    } finally {
      front.answer = undefined;
      await close(other.server);
    }
  });

  it("error replies echoing the token in every encoding: told by their code only", async () => {
    const outcomes: string[] = [];
    try {
      for (const echoed of Object.values(echoForms(TOKEN))) {
        for (const text of [`WRONGPASS ${echoed}`, `ERR user_script:1: ${echoed} script: 0a1b, on @user_script:1.`]) {
          front.answer = (_req, res) => {
            res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: text }));
            return true;
          };
          const { coordinator, away } = open();
          await Promise.resolve(coordinator.partner(key()).turn(request)).then(
            (turn) => {
              turn.done({ kind: "admitted" });
              outcomes.push(`fair share: ${away[0]?.message}`);
            },
            (error: Error) => {
              said.push(error.message, String(error.stack));
              outcomes.push(`surfaced: ${error.message}`);
            },
          );
        }
      }
    } finally {
      front.answer = undefined;
    }
    expect(new Set(outcomes)).toEqual(
      new Set([
        "fair share: Redis command failed: ErrorReply WRONGPASS",
        "surfaced: ERR user_script:1: a runtime error of the coordinator's script (its text is withheld over REST)",
      ]),
    );
    expect(leaks()).toEqual([]);
  });
});

describe.skipIf(skip)("over REST", () => {
  it("NOSCRIPT after SCRIPT FLUSH: the script is sent again with EVAL", async () => {
    const admin = await redis.ready(redis.client());
    await admin.call("SCRIPT", "FLUSH");
    const from = front.requests.length;
    const { coordinator, away } = open();
    const turn = await coordinator.partner(key()).turn(request);
    turn.done({ kind: "admitted" });
    expect(away).toEqual([]);
    // Probes of the coordinators above (PING) may come in between.
    const sent = front.requests.slice(from).map((r) => (JSON.parse(r.body) as string[])[0]);
    expect(sent.filter((command) => command !== "PING").slice(0, 2)).toEqual(["EVALSHA", "EVAL"]);
  });

  it("every request carries the token in its Authorization header and nowhere else", async () => {
    const { coordinator } = open();
    (await coordinator.partner(key()).turn(request)).done({ kind: "admitted" });
    expect(front.requests.length).toBeGreaterThan(0);
    for (const r of front.requests.filter((r) => r.headers.authorization === `Bearer ${TOKEN}`)) {
      expect(r.method).toBe("POST");
      expect(r.path).toBe("/");
      expect(findSecret(r.body, TOKEN)).toBeUndefined();
    }
  });

  it("options are checked, never quoting the URL or the token", () => {
    const bad: Array<[Partial<RestRedisOptions>, RegExp]> = [
      [{ url: "not a url" }, /"url" must be an absolute URL/],
      [{ url: "http://example.test" }, /https URL/],
      [{ url: `https://example.test/?_token=${TOKEN}` }, /query/],
      [{ url: `https://user:${encodeURIComponent(TOKEN)}@example.test` }, /credentials/],
      [{ token: "" }, /"token" must be/],
      [{ token: `${TOKEN}\r\nx-injected: 1` }, /"token" must be/],
      [{ fetch: "nope" as never }, /"fetch" must be a function/],
    ];
    for (const [options, message] of bad) {
      let error: Error | undefined;
      try {
        restRedis({ url: "https://example.test", token: TOKEN, ...options });
      } catch (e) {
        error = e as Error;
      }
      expect(error?.message).toMatch(message);
      said.push(String(error?.message), String(error?.stack));
    }
    expect(leaks()).toEqual([]);
  });

  it("no message, log text or property of the connection held the token", () => {
    expect(said.length).toBeGreaterThan(10);
    expect(leaks()).toEqual([]);
  });
});
