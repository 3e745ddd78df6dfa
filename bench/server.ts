/**
 * The benchmark's API server: node:http on 127.0.0.1, run in its own process (bench/run.ts forks
 * it), so the client under test and the server never share an event loop.
 *
 * Two mounts of the same fake API:
 * - `/fast/api/v3`: answers at once (overhead, memory);
 * - `/limited/api/v3`: every answer after `LATENCY_MS`, and partner-scoped calls (those carrying
 *   X-Preferred-Partner-Id) pass a token bucket per partner, `RATE` per second with `BURST`
 *   tokens; past it a 429 without Retry-After (Section 7, 8.1), which uses no token.
 *
 * The limited mount also counts, per partner, the calls in flight at the server (from arrival to
 * answer, 429s included) and their maximum, overall and in the quiet period after a 429 (Section
 * 8.4: 4 in flight; from `QUIET_GRACE_MS` after the 429, the time a client needs to hear of it),
 * and refuses with 401 an access token past its `exp`. Sign-ins and refreshes are counted per user
 * name (bench/cluster.ts signs in with the partner id as its user name, so they are the partner's);
 * a user's access tokens live `tokenTtlMs` when the parent configured one, else an hour.
 *
 * IPC: `{ type: "stats" }` → `{ type: "stats", partners }`;
 * `{ type: "configure", user, tokenTtlMs }` → `{ type: "configured", user }`.
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { CLIENT_DEFAULTS } from "../src/limits.ts";
import { BURST, LATENCY_MS, QUIET_GRACE_MS, RATE, TOTAL_EVENTS } from "./scenario.ts";

interface Bucket {
  tokens: number;
  at: number;
  admitted: number;
  refused: number;
  unauthorized: number;
  inFlight: number;
  maxInFlight: number;
  maxInFlightQuiet: number;
  last429At: number;
}

const buckets = new Map<string, Bucket>();

function bucketOf(partner: string): Bucket {
  let bucket = buckets.get(partner);
  if (!bucket) {
    bucket = {
      tokens: BURST,
      at: performance.now(),
      admitted: 0,
      refused: 0,
      unauthorized: 0,
      inFlight: 0,
      maxInFlight: 0,
      maxInFlightQuiet: 0,
      last429At: Number.NEGATIVE_INFINITY,
    };
    buckets.set(partner, bucket);
  }
  return bucket;
}

/** One more call of `partner` at the server; returns the function that ends it. */
function arrive(bucket: Bucket): () => void {
  const now = performance.now();
  bucket.inFlight += 1;
  bucket.maxInFlight = Math.max(bucket.maxInFlight, bucket.inFlight);
  const sinceLast429 = now - bucket.last429At;
  if (sinceLast429 >= QUIET_GRACE_MS && sinceLast429 <= CLIENT_DEFAULTS.rateLimitQuietPeriodMs)
    bucket.maxInFlightQuiet = Math.max(bucket.maxInFlightQuiet, bucket.inFlight);
  return () => {
    bucket.inFlight -= 1;
  };
}

function take(bucket: Bucket): boolean {
  const now = performance.now();
  bucket.tokens = Math.min(BURST, bucket.tokens + ((now - bucket.at) * RATE) / 1000);
  bucket.at = now;
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1;
    bucket.admitted += 1;
    return true;
  }
  bucket.refused += 1;
  bucket.last429At = now;
  return false;
}

interface User {
  signIns: number;
  refreshes: number;
  tokenTtlMs: number;
}

const users = new Map<string, User>();
function userOf(name: string): User {
  let user = users.get(name);
  if (!user) {
    user = { signIns: 0, refreshes: 0, tokenTtlMs: 3_600_000 };
    users.set(name, user);
  }
  return user;
}

function jwt(claims: Record<string, unknown>): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
  return `${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.${Buffer.from("bench-signature").toString("base64url")}`;
}

let tokenSeq = 0;
/** Tokens for `name`: the access token lives at least the user's `tokenTtlMs` (`exp` is whole seconds). */
function tokens(name: string): string {
  const exp = Math.ceil((Date.now() + userOf(name).tokenTtlMs) / 1000);
  const jti = `t${++tokenSeq}`;
  return JSON.stringify({
    AccessToken: jwt({ sub: name, token_use: "access", exp, jti }),
    IdToken: jwt({ sub: name, token_use: "id", exp, groups: ["partner-id-bench"] }),
    RefreshToken: `bench-refresh-token:${name}`,
  });
}

/** The access token's `exp` claim in ms, when the Authorization header carries a readable one. */
function bearerExpiryMs(authorization: string | undefined): number | undefined {
  const payload = authorization?.startsWith("Bearer ") ? authorization.slice(7).split(".")[1] : undefined;
  if (!payload) return undefined;
  try {
    const exp = (JSON.parse(Buffer.from(payload, "base64url").toString()) as { exp?: unknown }).exp;
    return typeof exp === "number" ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** Sign-in (`{ username }`) and refresh (`{ token }`, minted as `bench-refresh-token:<user>`): counted, answered. */
function authAnswer(path: string, body: string): string {
  let fields: { username?: unknown; token?: unknown } = {};
  try {
    fields = JSON.parse(body) as typeof fields;
  } catch {
    // not JSON: counted under "bench"
  }
  if (path === "/auth") {
    const name = typeof fields.username === "string" ? fields.username : "bench";
    userOf(name).signIns += 1;
    return tokens(name);
  }
  const token = typeof fields.token === "string" ? fields.token : "";
  const name = token.startsWith("bench-refresh-token:") ? token.slice("bench-refresh-token:".length) : "bench";
  userOf(name).refreshes += 1;
  return tokens(name);
}

let requestSeq = 0;
function send(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "x-request-id": `bench-${++requestSeq}`,
  });
  res.end(text);
}

const eventJson = (id: number): string =>
  `{"id":"evt-${id}","name":"Event ${id}","frontend_status":"DEFAULT","starts_at":"2026-06-01T19:30:00Z","venue":"Hall ${id % 50}","capacity":${1000 + (id % 9000)}}`;

function eventPage(page: number, limit: number): string {
  const first = (page - 1) * limit;
  const count = Math.max(0, Math.min(limit, TOTAL_EVENTS - first));
  const items: string[] = new Array(count);
  for (let i = 0; i < count; i++) items[i] = eventJson(first + i + 1);
  return `{"items":[${items.join(",")}],"page":${page},"limit":${limit}}`;
}

function answer(path: string, query: URLSearchParams, method: string, body: string): { status: number; text: string } {
  if (method === "POST" && (path === "/auth" || path === "/auth/refresh_token"))
    return { status: 200, text: authAnswer(path, body) };
  if (path === "/events/")
    return {
      status: 200,
      text: eventPage(Number(query.get("page") ?? 1), Math.min(100, Number(query.get("limit") ?? 100))),
    };
  const benchmark = /^\/events\/([^/]+)\/lookout_prediction_benchmark$/.exec(path);
  if (benchmark)
    return {
      status: 200,
      text: `{"eid":"${benchmark[1]}","type":"${query.get("type") ?? ""}","benchmark":[0.82,0.9,1.05]}`,
    };
  const event = /^\/events\/([^/]+)$/.exec(path);
  if (event) return { status: 200, text: eventJson(Number(event[1]?.replace(/\D/g, "") || 0)) };
  if (path === "/permissions") return { status: 200, text: `{"permissions":["read"]}` };
  return { status: 404, text: `{"code":"error.not_found"}` };
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk)); // only the /auth family's bodies are read
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString();
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const limited = url.pathname.startsWith("/limited/api/v3");
    const prefix = limited ? "/limited/api/v3" : "/fast/api/v3";
    if (!url.pathname.startsWith(prefix)) return send(res, 404, "{}");
    const path = url.pathname.slice(prefix.length);
    if (!limited) {
      const { status, text } = answer(path, url.searchParams, req.method ?? "GET", body);
      return send(res, status, text);
    }
    const partner = req.headers["x-preferred-partner-id"];
    const bucket = typeof partner === "string" ? bucketOf(partner) : undefined;
    const leave = bucket ? arrive(bucket) : undefined;
    const admitted = !bucket || take(bucket);
    // The token is checked as the call arrives, as an API gateway does.
    const expiry = bucket ? bearerExpiryMs(req.headers.authorization) : undefined;
    const expired = expiry !== undefined && Date.now() >= expiry;
    setTimeout(() => {
      leave?.();
      if (!admitted) return send(res, 429, `{"code":"error.rate_limited"}`);
      if (bucket && expired) {
        bucket.unauthorized += 1;
        return send(res, 401, `{"code":"error.unauthorized"}`);
      }
      const { status, text } = answer(path, url.searchParams, req.method ?? "GET", body);
      send(res, status, text);
    }, LATENCY_MS);
  });
});
server.keepAliveTimeout = 60_000;

process.on("message", (message: { type?: string; user?: string; tokenTtlMs?: number }) => {
  if (message?.type === "stats") {
    const ids = new Set([...buckets.keys(), ...users.keys()]);
    const partners = Object.fromEntries(
      [...ids].map((id) => {
        const b = buckets.get(id);
        const u = users.get(id);
        return [
          id,
          {
            admitted: b?.admitted ?? 0,
            refused: b?.refused ?? 0,
            unauthorized: b?.unauthorized ?? 0,
            maxInFlight: b?.maxInFlight ?? 0,
            maxInFlightQuiet: b?.maxInFlightQuiet ?? 0,
            signIns: u?.signIns ?? 0,
            refreshes: u?.refreshes ?? 0,
          },
        ];
      }),
    );
    process.send?.({ type: "stats", partners });
  }
  if (message?.type === "configure" && typeof message.user === "string") {
    userOf(message.user).tokenTtlMs = message.tokenTtlMs ?? 3_600_000;
    process.send?.({ type: "configured", user: message.user });
  }
});
process.on("disconnect", () => process.exit(0));

server.listen(0, "127.0.0.1", () => {
  process.send?.({ type: "ready", port: (server.address() as AddressInfo).port });
});
