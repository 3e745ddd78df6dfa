/**
 * Reads a response body with a size limit (option `maxResponseBytes`). The limit counts the bytes
 * as they come out of the runtime's decompression, so a small gzip body that inflates to hundreds
 * of megabytes stops at the limit instead of filling memory. A body whose length is declared and
 * not encoded is refused before it is read, and read in one go otherwise (the fast path).
 */
import { AttemptFailure } from "./failure.ts";

export async function readBody(response: Response, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = response.headers.get("content-length");
  const encoded = response.headers.has("content-encoding");
  if (declared !== null && !encoded) {
    if (Number(declared) > limit) {
      await response.body?.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    return new Uint8Array(await response.arrayBuffer());
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array<ArrayBuffer>;
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/** Without a request id: the terminal (fetch-terminal.ts) adds the response's to every failure it passes on. */
const tooLarge = (limit: number): AttemptFailure =>
  new AttemptFailure(
    "too-large",
    true,
    `response body larger than maxResponseBytes (${limit} bytes); not read further`,
  );
