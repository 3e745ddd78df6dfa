/**
 * SHA-1 and SHA-256 of a text (its UTF-8 bytes), hex, computed here so the Redis coordinator loads
 * no `node:crypto`: edge runtimes (Vercel Edge, Deno Deploy, Netlify Edge) that reach Redis over
 * REST have Web Crypto only, whose `subtle.digest` is asynchronous, and `partner()` / `session()`
 * build their keys synchronously. Neither digest guards a secret: SHA-1 names a script for EVALSHA
 * (Redis computes the same), SHA-256 shortens a key. The output equals `node:crypto`'s byte for byte
 * (test/unit/redis-digests.test.ts), so keys and script SHAs are what they were.
 */

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** The message padded to a multiple of 64 bytes with its bit length, big-endian, as words. */
function blocks(bytes: Uint8Array): Uint32Array {
  const length = (((bytes.length + 8) >> 6) + 1) << 6;
  const padded = new Uint8Array(length);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(length - 8, Math.floor(bytes.length / 0x20000000));
  view.setUint32(length - 4, (bytes.length << 3) >>> 0);
  const words = new Uint32Array(length >> 2);
  for (let i = 0; i < words.length; i++) words[i] = view.getUint32(i << 2);
  return words;
}

const hex = (state: Uint32Array): string => Array.from(state, (w) => w.toString(16).padStart(8, "0")).join("");
const rotl = (x: number, n: number): number => (x << n) | (x >>> (32 - n));
const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));
/** A word of a typed array at an index known to be in range. */
const at = (words: Uint32Array, i: number): number => words[i] as number;

export function sha1Hex(text: string): string {
  const words = blocks(utf8(text));
  const h = new Uint32Array([0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0]);
  const w = new Uint32Array(80);
  for (let block = 0; block < words.length; block += 16) {
    for (let t = 0; t < 80; t++)
      w[t] = t < 16 ? at(words, block + t) : rotl(at(w, t - 3) ^ at(w, t - 8) ^ at(w, t - 14) ^ at(w, t - 16), 1);
    let [a, b, c, d, e] = h as unknown as [number, number, number, number, number];
    for (let t = 0; t < 80; t++) {
      const f = t < 20 ? (b & c) | (~b & d) : t < 40 || t >= 60 ? b ^ c ^ d : (b & c) | (b & d) | (c & d);
      const k = t < 20 ? 0x5a827999 : t < 40 ? 0x6ed9eba1 : t < 60 ? 0x8f1bbcdc : 0xca62c1d6;
      const next = (rotl(a, 5) + f + e + k + at(w, t)) | 0;
      [e, d, c, b, a] = [d, c, rotl(b, 30), a, next];
    }
    const sums = [a, b, c, d, e];
    for (let i = 0; i < 5; i++) h[i] = at(h, i) + (sums[i] as number);
  }
  return hex(h);
}

/** The first 32 bits of the fractional parts of the cube roots of the first 64 primes (FIPS 180-4). */
const K256 = new Uint32Array(64);
{
  let n = 0;
  for (let candidate = 2; n < 64; candidate++) {
    let prime = true;
    for (let d = 2; d * d <= candidate; d++) if (candidate % d === 0) prime = false;
    if (prime) K256[n++] = Math.floor((Math.cbrt(candidate) % 1) * 0x100000000);
  }
}

export function sha256Hex(text: string): string {
  const words = blocks(utf8(text));
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  for (let block = 0; block < words.length; block += 16) {
    for (let t = 0; t < 64; t++) {
      if (t < 16) w[t] = at(words, block + t);
      else {
        const s0 = rotr(at(w, t - 15), 7) ^ rotr(at(w, t - 15), 18) ^ (at(w, t - 15) >>> 3);
        const s1 = rotr(at(w, t - 2), 17) ^ rotr(at(w, t - 2), 19) ^ (at(w, t - 2) >>> 10);
        w[t] = (at(w, t - 16) + s0 + at(w, t - 7) + s1) | 0;
      }
    }
    let [a, b, c, d, e, f, g, hh] = h as unknown as number[] as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    for (let t = 0; t < 64; t++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + at(K256, t) + at(w, t)) | 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      [hh, g, f, e, d, c, b, a] = [g, f, e, (d + t1) | 0, c, b, a, (t1 + t2) | 0];
    }
    const sums = [a, b, c, d, e, f, g, hh];
    for (let i = 0; i < 8; i++) h[i] = at(h, i) + (sums[i] as number);
  }
  return hex(h);
}
