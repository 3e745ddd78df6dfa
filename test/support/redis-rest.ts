/**
 * A small HTTP front that speaks the Upstash REST protocol (https://upstash.com/docs/redis/features/restapi:
 * POST of a JSON command array, `Authorization: Bearer <token>`, `{"result": …}` or, when the
 * command fails, HTTP 400 `{"error": "<the server's error text>"}`; 401 for a refused token) over a
 * real redis-server through ioredis, on 127.0.0.1 at a free port. Every request is recorded
 * (headers and body), and `answer` can take over any request, for the failure tests.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Redis } from "ioredis";

export interface RestFront {
  readonly url: string;
  /** Every request the front received. */
  readonly requests: Array<{ method: string; path: string; headers: IncomingMessage["headers"]; body: string }>;
  /** When set and it returns true, it answered the request itself. */
  answer: ((req: IncomingMessage, res: ServerResponse, body: string) => boolean) | undefined;
  close(): Promise<void>;
}

const send = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
};

/** A REST front on `redis` (a connected ioredis client) that accepts `token`. */
export async function startRestFront(redis: Redis, token: string): Promise<RestFront> {
  const front: RestFront = {
    url: "",
    requests: [],
    answer: undefined,
    close: async () => undefined,
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      front.requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      if (front.answer?.(req, res, body)) return;
      if (req.headers.authorization !== `Bearer ${token}`) return send(res, 401, { error: "Unauthorized" });
      let command: unknown;
      try {
        command = JSON.parse(body);
      } catch {
        return send(res, 400, { error: "ERR failed to parse command" });
      }
      if (req.method !== "POST" || !Array.isArray(command) || !command.every((a) => typeof a === "string"))
        return send(res, 400, { error: "ERR command must be a JSON array of strings" });
      const [name, ...args] = command as string[];
      redis.call(name as string, ...args).then(
        (result) => send(res, 200, { result }),
        (error: Error) => send(res, 400, { error: error.message }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(front, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
