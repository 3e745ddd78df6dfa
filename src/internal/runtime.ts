/**
 * True in a browser-like runtime: a page (a window and a document) or any browser worker
 * (dedicated, shared or service: the global object is a `WorkerGlobalScope`). Server-side runtimes
 * are recognized first and are never browser-like, whatever globals they imitate: Node and Bun
 * (`process.versions.node`), Deno (`Deno`) and workerd / Cloudflare Workers (whose global is a
 * `ServiceWorkerGlobalScope`, with `navigator.userAgent` "Cloudflare-Workers").
 */
export function isBrowserLike(): boolean {
  const g = globalThis as Record<string, unknown>;
  const proc = g.process as { versions?: { node?: string } } | undefined;
  const agent = (g.navigator as { userAgent?: unknown } | undefined)?.userAgent;
  if (proc?.versions?.node || typeof g.Deno !== "undefined" || agent === "Cloudflare-Workers") return false;
  if (typeof g.window !== "undefined" && typeof g.document !== "undefined") return true;
  const scope = g.WorkerGlobalScope;
  return typeof scope === "function" && globalThis instanceof scope;
}

/** Whether a hostname is a loopback address (http is allowed there, for mocks and tests). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
