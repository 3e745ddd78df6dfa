/**
 * The few Redis commands the coordinator sends, over the caller's own client: ioredis (`call`),
 * node-redis (`sendCommand`), or a REST connection (`restRedis`, rest.ts). Each command has its own
 * timeout, so an unreachable Redis fails a command in `timeoutMs` instead of holding calls
 * (configure the client without an offline queue too; a REST request is aborted). Scripts run with
 * EVALSHA; a server that lost them (NOSCRIPT: a restart, a failover, SCRIPT FLUSH) gets them again
 * with EVAL. No `node:` module: the REST path runs in edge runtimes.
 */
import { sha1Hex } from "./digests.ts";
import { RedisUnavailable } from "./errors.ts";
import { type RestRedis, restSender } from "./rest.ts";

export { RedisUnavailable } from "./errors.ts";

/** An ioredis client (`call`, v5+), a node-redis client (`sendCommand`, v4+), or a REST connection. */
export type RedisClientLike =
  | {
      /** ioredis: sends one command. */
      call(command: string, ...args: Array<string | number>): Promise<unknown>;
    }
  | {
      /** node-redis: sends one command. */
      sendCommand(args: string[]): Promise<unknown>;
    }
  /** A Redis over the Upstash REST protocol: `restRedis({ url, token })`. */
  | RestRedis;

export type Reply = string | number | null | Reply[];

export interface Script {
  readonly source: string;
  readonly sha: string;
}

export function script(source: string): Script {
  return { source, sha: sha1Hex(source) };
}

export interface RedisCommands {
  /** Runs `s` atomically with `keys` and `args`. Rejects with RedisUnavailable on a timeout or a connection error. */
  run(s: Script, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<Reply>;
  /** One command (PING, GET, …), with the same timeout. */
  send(command: string, ...args: Array<string | number>): Promise<Reply>;
}

export function redisCommands(redis: RedisClientLike, timeoutMs: number): RedisCommands {
  const raw = adapt(redis);
  const send = (args: string[]): Promise<Reply> => withDeadline(raw, args, timeoutMs);
  return {
    send: (command, ...args) => send([command, ...args.map(String)]),
    async run(s, keys, args) {
      const rest = [String(keys.length), ...keys, ...args.map(String)];
      try {
        return await send(["EVALSHA", s.sha, ...rest]);
      } catch (error) {
        if (!/NOSCRIPT/i.test(messageOf(error))) throw error;
        return send(["EVAL", s.source, ...rest]);
      }
    },
  };
}

type Raw = (args: string[], signal: AbortSignal) => Promise<Reply>;

function adapt(redis: RedisClientLike): Raw {
  const rest = typeof redis === "object" && redis !== null ? restSender(redis) : undefined;
  if (rest) return rest as Raw;
  if (typeof (redis as { call?: unknown }).call === "function") {
    const client = redis as { call(command: string, ...args: string[]): Promise<unknown> };
    return ([command, ...args]) => client.call(command as string, ...args) as Promise<Reply>;
  }
  if (typeof (redis as { sendCommand?: unknown }).sendCommand === "function") {
    const client = redis as { sendCommand(args: string[]): Promise<unknown> };
    return (args) => client.sendCommand(args) as Promise<Reply>;
  }
  throw new TypeError(
    'redisCoordinator: option "redis" must be an ioredis or node-redis client (call() or sendCommand()), or restRedis()',
  );
}

/**
 * A bug of our own script (a Lua runtime error) and NOSCRIPT (run() sends the script again) pass
 * as they are; every other failure means Redis is away: a timeout, a lost connection, and each
 * error reply of a server that cannot serve us now (READONLY after a failover, NOPERM for an ACL
 * user, LOADING, BUSY, MASTERDOWN, OOM, …), named by its code only. A RedisUnavailable of the REST
 * connection (an HTTP status) says so already. A command past its deadline is aborted (REST).
 */
function withDeadline(raw: Raw, args: string[], timeoutMs: number): Promise<Reply> {
  const abort = new AbortController();
  return new Promise<Reply>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new RedisUnavailable(`no answer from Redis within ${timeoutMs} ms`));
      abort.abort();
    }, timeoutMs);
    let pending: Promise<Reply>;
    try {
      pending = raw(args, abort.signal);
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (error instanceof RedisUnavailable || passes(error)) reject(error);
        else reject(new RedisUnavailable(`Redis command failed: ${codeOf(error)}`));
      },
    );
  });
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
/** An error reply's code (its first word: READONLY, NOPERM…), else the error's name: never its text. */
function codeOf(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const code = /^([A-Z][A-Z_-]{1,30})\b/.exec(error.message)?.[1];
  return isReplyError(error) && code ? `${error.name} ${code}` : error.name;
}

/**
 * A server's error reply: ioredis names it ReplyError; node-redis's classes (SimpleError, BlobError)
 * extend ErrorReply and keep the name "Error", so their class chain says it.
 */
function isReplyError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === "ReplyError" || error.name === "ErrorReply") return true;
  for (let p = Object.getPrototypeOf(error); p && p !== Error.prototype; p = Object.getPrototypeOf(p))
    if ((p as { constructor?: { name?: string } }).constructor?.name === "ErrorReply") return true;
  return false;
}

/** NOSCRIPT, or a Lua runtime error of our own script (Redis 7: "ERR user_script:3: …"; 6: "… @user_script:3: …"). */
function passes(error: unknown): boolean {
  if (!isReplyError(error)) return false;
  const message = messageOf(error);
  return /^NOSCRIPT\b/.test(message) || (/^ERR\b/.test(message) && /user_script/.test(message));
}
