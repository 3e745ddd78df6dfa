/** Reading one incoming request: its path without the host's prefix, its body, what the log keeps of it. */
import type { IncomingMessage } from "node:http";
import { SPEC } from "../limits.ts";
import { type KnownSecrets, scrubForm, scrubJson } from "./log-secrets.ts";

/** The path prefixes of the main API and of the media host (Section 1, 9.1). */
const PREFIXES = [SPEC.apiVersionPath, SPEC.mediaPath] as const;

/** The largest body the mock reads: a larger one is answered 413 (a kit's choice; uploads in tests are small). */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** The largest body the log keeps; a larger one is logged as a note of its type and size. */
const MAX_LOGGED_BYTES = 64 * 1024;

export function stripPrefix(pathname: string): string {
  const prefix = PREFIXES.find((p) => pathname === p || pathname.startsWith(`${p}/`));
  return prefix ? pathname.slice(prefix.length) || "/" : pathname;
}

/** The request target as a URL, or undefined when it is not one (`http://a:99999/x`, `*`). */
export function targetOf(target: string | undefined): URL | undefined {
  try {
    // Only the path and query count: an absolute-form target's host is ignored, the mock has one.
    return new URL(target ?? "/", "http://127.0.0.1");
  } catch {
    return undefined;
  }
}

/** The body, whole, whatever its framing (length or chunked); `undefined` past {@link MAX_BODY_BYTES}. */
export async function readBody(req: IncomingMessage): Promise<{ bytes: Buffer; size: number }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  return { bytes: size <= MAX_BODY_BYTES ? Buffer.concat(chunks) : Buffer.alloc(0), size };
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

/** What the log keeps of a body: JSON or text with secrets out, or a note for a large or binary one. */
export function loggedBody(
  raw: Buffer,
  size: number,
  parsed: unknown,
  contentType: string | undefined,
  secrets: KnownSecrets,
): unknown {
  if (size === 0) return undefined;
  if (size > MAX_LOGGED_BYTES) return `[${contentType ?? "body"}, ${size} bytes]`;
  if (parsed !== undefined) return scrubJson(parsed, secrets);
  if (/urlencoded/i.test(contentType ?? "")) return scrubForm(raw.toString("utf8"), secrets);
  if (/^text\//i.test(contentType ?? "")) return secrets.cut(raw.toString("utf8"));
  return `[${contentType ?? "body"}, ${size} bytes]`;
}

/** The bearer token of an `Authorization` header, if any. */
export function bearerOf(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)/i.exec(header ?? "");
  return match?.[1];
}

/** The first value of a header. */
export const headerOf = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value;
