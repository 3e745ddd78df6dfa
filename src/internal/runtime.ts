/** True in a browser-like runtime (a window and a document, no Node/Deno/Bun process). */
export function isBrowserLike(): boolean {
  const g = globalThis as Record<string, unknown>;
  const proc = g.process as { versions?: { node?: string } } | undefined;
  return typeof g.window !== "undefined" && typeof g.document !== "undefined" && !proc?.versions?.node;
}

/** Whether a hostname is a loopback address (http is allowed there, for mocks and tests). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
