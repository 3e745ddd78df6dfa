/**
 * A real node:http server on 127.0.0.1 that records every request it receives and answers with
 * a handler the test supplies: the honest witness for retries, headers and timing.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** The path prefix the servers answer under, as the real API does (Section 1, 9.1: `/api/v3`). */
export const API_PREFIX = "/api/v3";

/** A request path with the API prefix removed, so tests read `/events/` as the API documents it. */
export function apiRelative(path: string): string {
  return path === API_PREFIX || path.startsWith(`${API_PREFIX}/`) ? path.slice(API_PREFIX.length) || "/" : path;
}

export interface RecordedRequest {
  method: string;
  /** Path and query, relative to the API prefix (`/events/?page=1`); other paths as received. */
  url: string;
  /** Path relative to the API prefix (`/events/`); other paths (`/api/media/media`) as received. */
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage["headers"];
  body: string;
  receivedAt: number;
}

export type Handler = (req: RecordedRequest, res: ServerResponse) => void | Promise<void>;

export interface RecordingServer {
  /** The base address a client is given: `http://127.0.0.1:<port>/api/v3`. */
  url: string;
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  requests: RecordedRequest[];
  /** Requests being handled right now, and the most seen at once. */
  inFlight: () => number;
  maxInFlight: () => number;
  resetStats: () => void;
  handle: (handler: Handler) => void;
  close: () => Promise<void>;
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = body === undefined ? "" : JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

export async function startRecordingServer(initial?: Handler): Promise<RecordingServer> {
  let handler: Handler = initial ?? ((_req, res) => json(res, 200, {}, { "x-request-id": "req-default" }));
  const requests: RecordedRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const record: RecordedRequest = {
        method: req.method ?? "GET",
        url: apiRelative(url.pathname) + url.search,
        path: apiRelative(url.pathname),
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        receivedAt: Date.now(),
      };
      requests.push(record);
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      res.on("close", () => (inFlight -= 1));
      Promise.resolve(handler(record, res)).catch((error: unknown) => {
        if (!res.headersSent) json(res, 599, { error: String(error) });
        else res.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${API_PREFIX}`,
    origin: `http://127.0.0.1:${port}`,
    requests,
    inFlight: () => inFlight,
    maxInFlight: () => maxInFlight,
    resetStats: () => {
      requests.length = 0;
      maxInFlight = inFlight;
    },
    handle: (h) => (handler = h),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
