/**
 * A fake API whose clock is not the client's: every response's `Date`, every token's
 * `exp` and every HTTP-date `Retry-After` are in server time, `Date.now() + skewMs`. It refuses a
 * token whose `exp` has passed in server time with a 401 and counts it, and can answer the next
 * event read with a 429 whose Retry-After is an HTTP-date, recording when the retry came.
 * Shared by test/operations/ and bench/operations.ts.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface SkewedApiOptions {
  /** Server clock minus the client's clock, ms. */
  readonly skewMs?: number;
  /** Lifetime of each access token, s. @default 3600 */
  readonly lifetimeS?: number;
  /** Delay of every event read, ms. @default 0 */
  readonly latencyMs?: number;
  /** Delay of a refresh, ms. @default 0 */
  readonly refreshDelayMs?: number;
  /** Answers a refresh with a 503 while this returns true. */
  readonly failRefresh?: () => boolean;
  /** Items the event list has in all. @default 10000 */
  readonly totalEvents?: number;
}

export interface SkewedApi {
  /** `http://127.0.0.1:PORT/api/v3` */
  readonly baseUrl: string;
  readonly stats: {
    signIns: number;
    refreshes: number;
    /** Calls that carried a token expired in server time (answered 401). */
    expiredSent: number;
    /** Event reads answered 200. */
    served: number;
  };
  /** Local times (Date.now()) at which refreshes were answered. */
  readonly refreshedAt: number[];
  /**
   * Answers the next event read with a 429 whose Retry-After is the HTTP-date `seconds` from now
   * in server time; resolves with the ms between that 429 and the retry (`waitedMs`) and the wait
   * the date meant in server time (`meantMs`: whole seconds, so up to 1 s less than `seconds`).
   */
  rateLimitNext(seconds: number): Promise<{ waitedMs: number; meantMs: number }>;
  close(): Promise<void>;
}

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
const jwt = (claims: Record<string, unknown>) => `${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.c2ln`;

export async function startSkewedApi(options: SkewedApiOptions = {}): Promise<SkewedApi> {
  const skew = options.skewMs ?? 0;
  const lifetime = options.lifetimeS ?? 3600;
  const total = options.totalEvents ?? 10_000;
  const serverNow = () => Date.now() + skew;
  const stats = { signIns: 0, refreshes: 0, expiredSent: 0, served: 0 };
  const refreshedAt: number[] = [];
  let serial = 0;
  let pending429:
    | {
        seconds: number;
        resolve: (r: { waitedMs: number; meantMs: number }) => void;
        sentAt?: number;
        meantMs?: number;
      }
    | undefined;

  const tokens = () => {
    serial += 1;
    // exp has whole seconds: rounded up, a token lives at least `lifetime` seconds.
    const exp = Math.ceil(serverNow() / 1000) + lifetime;
    return {
      AccessToken: jwt({ sub: "ops", token_use: "access", exp, n: serial }),
      IdToken: jwt({ sub: "ops", token_use: "id", exp, groups: ["partner-id-ops"], n: serial }),
      RefreshToken: "refresh-ops-opaque",
    };
  };
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, {
      "content-type": "application/json",
      date: new Date(serverNow()).toUTCString(),
      "x-request-id": `ops-${status}-${serial}`,
      ...headers,
    });
    res.end(JSON.stringify(body));
  };
  const expired = (req: IncomingMessage): boolean => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    const payload = token?.split(".")[1];
    if (!payload) return true;
    const { exp } = JSON.parse(Buffer.from(payload, "base64url").toString()) as { exp: number };
    return exp * 1000 <= serverNow();
  };
  const delay = (ms: number | undefined) => (ms ? new Promise((r) => setTimeout(r, ms)) : undefined);

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const path = url.pathname.replace(/^\/api\/v3/, "");
    req.resume();
    req.on("end", async () => {
      if (req.method === "POST" && path === "/auth") {
        stats.signIns += 1;
        return send(res, 200, tokens());
      }
      if (req.method === "POST" && path === "/auth/refresh_token") {
        await delay(options.refreshDelayMs);
        if (options.failRefresh?.()) return send(res, 503, { message: "Service Unavailable" });
        stats.refreshes += 1;
        refreshedAt.push(Date.now());
        const { RefreshToken: _r, ...rest } = tokens();
        return send(res, 200, rest);
      }
      if (expired(req)) {
        stats.expiredSent += 1;
        return send(res, 401, { message: "The incoming token has expired" });
      }
      if (req.method === "GET" && path === "/events/") {
        await delay(options.latencyMs);
        const page = Number(url.searchParams.get("page") ?? 1);
        const limit = Number(url.searchParams.get("limit") ?? 100);
        const from = (page - 1) * limit;
        const items = Array.from({ length: Math.max(0, Math.min(limit, total - from)) }, (_, i) => ({
          id: `e${from + i}`,
        }));
        stats.served += 1;
        return send(res, 200, { items, total });
      }
      const event = /^\/events\/([^/]+)$/.exec(path);
      if (req.method === "GET" && event) {
        const waiting = pending429;
        if (waiting?.sentAt !== undefined) {
          pending429 = undefined;
          waiting.resolve({ waitedMs: Date.now() - waiting.sentAt, meantMs: waiting.meantMs ?? 0 });
        } else if (waiting) {
          waiting.sentAt = Date.now();
          const at = serverNow();
          const retryAt = Math.floor((at + waiting.seconds * 1000) / 1000) * 1000;
          waiting.meantMs = retryAt - at;
          return send(res, 429, { message: "Too Many Requests" }, { "retry-after": new Date(retryAt).toUTCString() });
        }
        await delay(options.latencyMs);
        stats.served += 1;
        return send(res, 200, { id: event[1] });
      }
      send(res, 404, { message: "not found" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v3`,
    stats,
    refreshedAt,
    rateLimitNext: (seconds) => new Promise((resolve) => (pending429 = { seconds, resolve })),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
