/** Asks Prism (on its private port) for the description's answer to a request, buffered. */
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import type { Answer } from "./answer.ts";

/** Headers the front sets itself, or that describe the hop rather than the answer. */
const HOP = new Set(["connection", "content-length", "transfer-encoding", "keep-alive", "date"]);

export function askPrism(
  port: number,
  method: string,
  pathAndQuery: string,
  headers: IncomingHttpHeaders,
  body: Buffer,
): Promise<Answer> {
  // The body is buffered whole: it goes on with its length, never chunked (both headers would be a 400).
  const { "accept-encoding": _encoding, "content-length": _length, "transfer-encoding": _chunked, ...rest } = headers;
  const sent = { ...rest, host: `127.0.0.1:${port}`, "content-length": String(body.length) };
  return new Promise((resolve, reject) => {
    const upstream = httpRequest({ host: "127.0.0.1", port, method, path: pathAndQuery, headers: sent }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on("data", (chunk: Buffer) => chunks.push(chunk));
      answer.on("error", reject);
      answer.on("end", () => {
        const kept: Record<string, string> = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (!HOP.has(name) && value !== undefined) kept[name] = Array.isArray(value) ? value.join(", ") : value;
        }
        resolve({ status: answer.statusCode ?? 502, headers: kept, body: Buffer.concat(chunks).toString("utf8") });
      });
    });
    upstream.on("error", reject);
    upstream.end(body);
  });
}
