/**
 * The browser test's one origin on 127.0.0.1: the page, the bundled app, and /api/* proxied to the
 * Prism mock of `startMockApi` (same origin, so no CORS in the way), recording every request it
 * passes on: the honest witness of what the app sent. Two answers are the witness's own, to make
 * failures (Prism answers only its examples): `evt-503` is always a 503, `evt-429` a 429 with a
 * Retry-After beyond the client's maxRetryAfterMs. A forecast answer is tagged with the partner its
 * request carried, so a forecast shown for the wrong partner can be seen. And Prism is stateless,
 * so the witness remembers one thing of Section 3: once a setup's boost succeeded, its GET says
 * `status: "PUBLISHED"` and a PUT of its draft is rejected (rule 1; 409 with the published form).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Seen {
  readonly method: string;
  /** Path and query below /api/v3. */
  readonly url: string;
  readonly partner: string | undefined;
  readonly body: string;
  readonly at: number;
}

export interface Site {
  readonly url: string;
  readonly seen: Seen[];
  close(): Promise<void>;
}

const API = "/api/v3";
const FORWARDED = ["authorization", "content-type", "accept", "x-preferred-partner-id"];

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", "x-request-id": "rid-site", ...headers }).end(body);
}

/** Answers one API request: the witness's own failures, else Prism's answer (a forecast tagged). */
async function answer(
  prismOrigin: string,
  published: Set<string>,
  req: IncomingMessage,
  res: ServerResponse,
  seen: Seen,
): Promise<void> {
  if (seen.url.includes("/evt-503")) return send(res, 503, "{}");
  if (seen.url.includes("/evt-429")) return send(res, 429, "{}", { "retry-after": "120" });
  const setup = /^\/setup_processes\/([^/?]+)(\/boost)?$/.exec(seen.url);
  const isPublished = setup !== null && published.has(setup[1] ?? "");
  if (isPublished && seen.method === "PUT") return send(res, 409, JSON.stringify({ status: "PUBLISHED" }));
  const headers = Object.fromEntries(
    FORWARDED.flatMap((name) => (typeof req.headers[name] === "string" ? [[name, req.headers[name] as string]] : [])),
  );
  const init = { method: seen.method, headers, ...(seen.body ? { body: seen.body } : {}) };
  const upstream = await fetch(`${prismOrigin}${API}${seen.url}`, init);
  let text = await upstream.text();
  if (upstream.ok && seen.url.includes("/lookout_prediction")) {
    text = JSON.stringify({ partner: seen.partner, prism: text ? JSON.parse(text) : null });
  }
  if (upstream.ok && setup?.[2] && seen.method === "POST") published.add(setup[1] ?? "");
  if (upstream.ok && isPublished && seen.method === "GET")
    text = JSON.stringify({ ...JSON.parse(text), status: "PUBLISHED" });
  send(res, upstream.status, text, { "x-request-id": upstream.headers.get("x-request-id") ?? "rid-prism" });
}

/** Starts the site: `files` by path (the page, the app), /api/v3/* proxied to `prismBaseUrl`'s origin. */
export function startSite(prismBaseUrl: string, files: Readonly<Record<string, string>>): Promise<Site> {
  const prismOrigin = new URL(prismBaseUrl).origin;
  const seen: Seen[] = [];
  const published = new Set<string>();
  const server = createServer((req, res) => {
    const url = req.url ?? "/";
    if (!url.startsWith(`${API}/`)) {
      const body = files[url.split("?")[0] ?? ""];
      if (body === undefined) return void res.writeHead(404).end();
      const type = url.endsWith(".html") || url === "/" ? "text/html" : "text/javascript";
      return void res.writeHead(200, { "content-type": `${type}; charset=utf-8` }).end(body);
    }
    void readBody(req).then(async (body) => {
      const partner = req.headers["x-preferred-partner-id"];
      const record = { method: req.method ?? "GET", url: url.slice(API.length), body, at: Date.now() };
      const entry: Seen = { ...record, partner: typeof partner === "string" ? partner : undefined };
      seen.push(entry);
      try {
        await answer(prismOrigin, published, req, res, entry);
      } catch (error) {
        send(res, 502, JSON.stringify({ proxy: String(error) }));
      }
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        seen,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
