/**
 * A Redis reached over the Upstash REST protocol, for runtimes without TCP sockets or a Durable
 * Object (Vercel Edge, Deno Deploy, Netlify Edge): one `fetch` per command, no pipeline, no
 * `node:` module. The protocol (https://upstash.com/docs/redis/features/restapi):
 * - the whole command as a JSON array in the body of a POST to the database's REST URL
 *   ("POST Command in Body"), authorized by `Authorization: Bearer <token>`;
 * - a JSON answer with a single `result` field (null, an integer, a string or an array of those)
 *   when the command ran, or a single `error` field with the server's error text (HTTP 400 when
 *   "command execution fails": NOSCRIPT, a script's runtime error); 401 when the token is refused.
 * No `Upstash-Encoding` header is sent, so strings come back as they are (our scripts only return
 * ASCII). Anything else (another status, a body that is not such JSON, a redirect) means Redis is
 * away, as a lost connection does.
 *
 * The token goes in that header only, to the configured URL only: redirects are not followed, and
 * no error, message or property of the connection holds it.
 */
import { RedisUnavailable, RestErrorReply } from "./errors.ts";

/** Options of {@link restRedis}. */
export interface RestRedisOptions {
  /** The database's REST URL (Upstash: `UPSTASH_REDIS_REST_URL`). https, or http to this machine only. */
  readonly url: string;
  /** The REST token (Upstash: `UPSTASH_REDIS_REST_TOKEN`). A secret: sent in the Authorization header only. */
  readonly token: string;
  /** The `fetch` to send with. @default globalThis.fetch */
  readonly fetch?: (input: string, init: RequestInit) => Promise<Response>;
}

/** A Redis over REST, for {@link redisCoordinator}'s `redis` option. Holds no token you can read. */
export interface RestRedis {
  /** The REST URL's origin (for your logs). */
  readonly origin: string;
}

type Sender = (args: string[], signal: AbortSignal) => Promise<unknown>;
const senders = new WeakMap<object, Sender>();

/** The sender of a connection {@link restRedis} made, or undefined for any other object. */
export const restSender = (redis: object): Sender | undefined => senders.get(redis);

const fail = (option: string, problem: string): never => {
  throw new TypeError(`restRedis: option "${option}" ${problem}`);
};

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

function endpoint(raw: unknown): URL {
  let url: URL | undefined;
  try {
    url = typeof raw === "string" ? new URL(raw) : undefined;
  } catch {
    url = undefined;
  }
  // Never quoted: a URL can carry a token (`?_token=`, `user:pass@`).
  if (!url) return fail("url", "must be an absolute URL");
  if (!(url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(url.hostname))))
    fail("url", "must be an https URL (http only to localhost)");
  if (url.username || url.password || url.search || url.hash)
    fail("url", "must not carry credentials, a query or a fragment (give the token as `token`)");
  return url;
}

/** A connection to a Redis over the Upstash REST protocol, for `redisCoordinator({ redis })`. */
export function restRedis(options: RestRedisOptions): RestRedis {
  if (typeof options !== "object" || options === null) fail("url", "is required");
  const url = endpoint(options.url).href;
  const token = options.token;
  // Visible ASCII only: a header value with anything else would fail inside fetch, whose error may quote it.
  if (typeof token !== "string" || !/^[\x21-\x7e]{1,4096}$/.test(token))
    fail("token", "must be a non-empty string of visible ASCII characters");
  const send = options.fetch ?? ((input: string, init: RequestInit) => globalThis.fetch(input, init));
  if (typeof send !== "function") fail("fetch", "must be a function");
  const connection: RestRedis = Object.freeze({ origin: new URL(url).origin });
  senders.set(connection, async (args, signal) => {
    const response = await send(url, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(args),
      redirect: "manual",
      signal,
    });
    return answer(response.status, await response.text());
  });
  return connection;
}

/** The command's result, a RestErrorReply for the server's error reply, else RedisUnavailable (never quoting the body). */
function answer(status: number, body: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const fields = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? parsed : undefined;
  if (fields && (status === 200 || status === 400) && typeof (fields as { error?: unknown }).error === "string")
    throw new RestErrorReply(errorText((fields as { error: string }).error));
  if (status === 200 && fields && "result" in fields) return (fields as { result: unknown }).result;
  throw new RedisUnavailable(
    status === 200 ? "Redis REST answered something other than a result" : `Redis REST answered HTTP ${status}`,
  );
}

/**
 * An error reply's text as commands.ts reads it: NOSCRIPT (the script is sent again); a runtime
 * error of our own script as one, with its line but not its text (it surfaces as a bug, as over
 * ioredis, but text that came through an HTTP service is not passed on: it could echo the token);
 * every other reply by its code only (its first word).
 */
function errorText(text: string): string {
  const code = /^[A-Z][A-Z_-]{1,30}\b/.exec(text)?.[0] ?? "ERR";
  if (code === "NOSCRIPT") return "NOSCRIPT";
  const line = code === "ERR" ? /user_script:(\d{1,6})\b/.exec(text)?.[1] : undefined;
  return line
    ? `ERR user_script:${line}: a runtime error of the coordinator's script (its text is withheld over REST)`
    : code;
}
