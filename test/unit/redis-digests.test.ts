/**
 * The Redis coordinator's SHA-1 and SHA-256 (src/redis/digests.ts over @noble/hashes, free of node:crypto for
 * edge runtimes) equal node:crypto's for every length around the block boundaries and for text
 * beyond ASCII, so script SHAs and Redis keys are the ones they were.
 */
import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sha1Hex, sha256Hex } from "../../src/redis/digests.ts";

const node = (algorithm: string, text: string) => createHash(algorithm).update(text).digest("hex");

describe("redis digests equal node:crypto", () => {
  const texts = [
    "",
    "abc",
    "é✓😀 – \u0000 nul",
    ...Array.from({ length: 200 }, (_, n) => "x".repeat(n)),
    ...Array.from({ length: 50 }, () => randomBytes(1 + Math.floor(Math.random() * 3000)).toString("latin1")),
    ...Array.from({ length: 20 }, () => randomBytes(700).toString("base64")),
  ];
  it("SHA-1", () => {
    for (const text of texts) expect(sha1Hex(text)).toBe(node("sha1", text));
  });
  it("SHA-256", () => {
    for (const text of texts) expect(sha256Hex(text)).toBe(node("sha256", text));
  });
});
