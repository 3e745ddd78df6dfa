/** Reading one incoming request: its path without the host's prefix, its body, what the log keeps of it. */
import type { IncomingMessage } from "node:http";
import { SPEC } from "../limits.ts";

/** The path prefixes of the main API and of the media host (Section 1, 9.1). */
const PREFIXES = [SPEC.apiVersionPath, SPEC.mediaPath] as const;

const MAX_BODY_BYTES = 16 * 1024 * 1024;
const MAX_LOGGED_TEXT = 64 * 1024;

export function stripPrefix(pathname: string): string {
  const prefix = PREFIXES.find((p) => pathname === p || pathname.startsWith(`${p}/`));
  return prefix ? pathname.slice(prefix.length) || "/" : pathname;
}

/** The body, whole (a test's uploads are small; more than 16 MiB is cut). */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The body parsed as JSON, or undefined. */
export function jsonBody(raw: Buffer, contentType: string | undefined): unknown {
  if (raw.length === 0 || !/json/i.test(contentType ?? "")) return undefined;
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch {
    return undefined;
  }
}

/** What the log keeps of a body: JSON with secrets replaced, short text, or a note for anything else. */
export function loggedBody(raw: Buffer, parsed: unknown, contentType: string | undefined): unknown {
  if (raw.length === 0) return undefined;
  if (parsed !== undefined) return redactSecrets(parsed);
  if (/^text\/|urlencoded/i.test(contentType ?? "") && raw.length <= MAX_LOGGED_TEXT) return raw.toString("utf8");
  return `[${contentType ?? "body"}, ${raw.length} bytes]`;
}

/** Sign-in's password and a refresh's token (Section 4) never reach the log. */
function redactSecrets(body: unknown): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const key of ["password", "token"]) if (key in copy) copy[key] = "[redacted]";
  return copy;
}

/** The bearer token of an `Authorization` header, if any. */
export function bearerOf(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)/i.exec(header ?? "");
  return match?.[1];
}

/** Every value of every query parameter, in order. */
export function queryRecord(search: URLSearchParams): Record<string, string[]> {
  const query: Record<string, string[]> = {};
  for (const [key, value] of search) query[key] = [...(query[key] ?? []), value];
  return query;
}
