/**
 * The local servers of the runtime matrix, each on 127.0.0.1 and a free port, closed by the test:
 * the page server (the origin Chromium's page and workers load from, so Prism is cross-origin), and
 * two API stand-ins that answer 404 with an x-request-id: one without any CORS headers, one that
 * allows CORS (preflight included) without exposing x-request-id.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

export interface Local {
  readonly url: string;
  close(): Promise<void>;
}

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Local> {
  const server: Server = createServer(handler);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (!address || typeof address === "string") return reject(new Error("no address"));
      resolve({
        url: `http://127.0.0.1:${address.port}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** Serves `files` (path → JavaScript or HTML); 404 for anything else. */
export function pageServer(files: Readonly<Record<string, string>>): Promise<Local> {
  return listen((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const body = files[path];
    if (body === undefined) return void res.writeHead(404).end();
    const type = path.endsWith(".html") ? "text/html" : "text/javascript";
    res.writeHead(200, { "content-type": `${type}; charset=utf-8`, "cache-control": "no-store" }).end(body);
  });
}

/** 404 with an x-request-id and no CORS headers: a browser blocks it (the preflight fails). */
export function noCorsServer(): Promise<Local> {
  return listen((_req, res) => {
    res.writeHead(404, { "content-type": "application/json", "x-request-id": "rid-no-cors" }).end("{}");
  });
}

/** CORS allowed, preflight included, but x-request-id is not in Access-Control-Expose-Headers. */
export function hiddenRequestIdServer(): Promise<Local> {
  return listen((req, res) => {
    const cors = {
      "access-control-allow-origin": "*",
      "access-control-allow-headers": "authorization, content-type, x-preferred-partner-id",
      "access-control-allow-methods": "GET, POST, PUT, DELETE",
    };
    if (req.method === "OPTIONS") return void res.writeHead(204, cors).end();
    res.writeHead(404, { ...cors, "content-type": "application/json", "x-request-id": "rid-hidden" }).end("{}");
  });
}
