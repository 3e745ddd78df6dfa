/**
 * A token of 20 to 220 KB whose text says which write made it (test/coordination/file-session.test.ts
 * and its child): a file holding parts of two writes, or half of one, does not match it.
 */
export function recordToken(i: number): string {
  return `${i}:${"x".repeat(20_000 + ((i * 7_919) % 200_000))}`;
}
