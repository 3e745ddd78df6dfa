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
 * The parent asks for per-partner counts over IPC: `{ type: "stats" }` → `{ type: "stats", partners }`.
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { BURST, LATENCY_MS, RATE, TOTAL_EVENTS } from "./scenario.ts";

interface Bucket {
  tokens: number;
  at: number;
  admitted: number;
  refused: number;
}

const buckets = new Map<string, Bucket>();

function take(partner: string): boolean {
  const now = performance.now();
  let bucket = buckets.get(partner);
  if (!bucket) {
    bucket = { tokens: BURST, at: now, admitted: 0, refused: 0 };
    buckets.set(partner, bucket);
  }
  bucket.tokens = Math.min(BURST, bucket.tokens + ((now - bucket.at) * RATE) / 1000);
  bucket.at = now;
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1;
    bucket.admitted += 1;
    return true;
  }
  bucket.refused += 1;
  return false;
}

function jwt(claims: Record<string, unknown>): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
  return `${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.${Buffer.from("bench-signature").toString("base64url")}`;
}

function tokens(): string {
  const exp = Math.floor(Date.now() / 1000) + 3600;
  return JSON.stringify({
    AccessToken: jwt({ sub: "bench", token_use: "access", exp }),
    IdToken: jwt({ sub: "bench", token_use: "id", exp, groups: ["partner-id-bench"] }),
    RefreshToken: "bench-refresh-token",
  });
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

function answer(path: string, query: URLSearchParams, method: string): { status: number; text: string } {
  if (method === "POST" && (path === "/auth" || path === "/auth/refresh_token")) return { status: 200, text: tokens() };
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
  req.resume(); // bodies are not needed
  req.on("end", () => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const limited = url.pathname.startsWith("/limited/api/v3");
    const prefix = limited ? "/limited/api/v3" : "/fast/api/v3";
    if (!url.pathname.startsWith(prefix)) return send(res, 404, "{}");
    const path = url.pathname.slice(prefix.length);
    if (!limited) {
      const { status, text } = answer(path, url.searchParams, req.method ?? "GET");
      return send(res, status, text);
    }
    const partner = req.headers["x-preferred-partner-id"];
    const admitted = typeof partner !== "string" || take(partner);
    setTimeout(() => {
      if (!admitted) return send(res, 429, `{"code":"error.rate_limited"}`);
      const { status, text } = answer(path, url.searchParams, req.method ?? "GET");
      send(res, status, text);
    }, LATENCY_MS);
  });
});
server.keepAliveTimeout = 60_000;

process.on("message", (message: { type?: string }) => {
  if (message?.type === "stats") {
    const partners = Object.fromEntries(
      [...buckets].map(([id, b]) => [id, { admitted: b.admitted, refused: b.refused }]),
    );
    process.send?.({ type: "stats", partners });
  }
});
process.on("disconnect", () => process.exit(0));

server.listen(0, "127.0.0.1", () => {
  process.send?.({ type: "ready", port: (server.address() as AddressInfo).port });
});
