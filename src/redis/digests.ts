/**
 * SHA-1 and SHA-256 of a text (its UTF-8 bytes), hex, without `node:crypto`: edge runtimes (Vercel
 * Edge, Deno Deploy, Netlify Edge) that reach Redis over REST have Web Crypto only, whose
 * `subtle.digest` is asynchronous, and `partner()` / `session()` build their keys synchronously.
 * @noble/hashes (audited, pure JS, synchronous) computes them. Neither digest guards a secret: SHA-1
 * names a script for EVALSHA (Redis computes the same), SHA-256 shortens a key. The output equals
 * `node:crypto`'s byte for byte (test/unit/redis-digests.test.ts), so keys and script SHAs are what
 * they were.
 */
import { sha1 } from "@noble/hashes/legacy.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

export const sha1Hex = (text: string): string => bytesToHex(sha1(utf8ToBytes(text)));

export const sha256Hex = (text: string): string => bytesToHex(sha256(utf8ToBytes(text)));
