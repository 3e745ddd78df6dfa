/**
 * True in a browser-like runtime: a page (a window and a document) or any browser worker
 * (dedicated, shared or service: the global object is a `WorkerGlobalScope`). Server-side runtimes
 * are recognized first and are never browser-like, whatever globals they imitate: Node and Bun
 * (`process.versions.node`), Deno (`Deno`) and workerd / Cloudflare Workers (whose global is a
 * `ServiceWorkerGlobalScope`, with `navigator.userAgent` "Cloudflare-Workers").
 */
export function isBrowserLike(): boolean {
  const g = globalThis as Record<string, unknown> & {
    process?: { versions?: { node?: string } };
    navigator?: { userAgent?: unknown };
    WorkerGlobalScope?: unknown;
  };
  if (g.process?.versions?.node || g.Deno || g.navigator?.userAgent === "Cloudflare-Workers") return false;
  const scope = g.WorkerGlobalScope;
  return (g.window !== undefined && g.document !== undefined) || (typeof scope === "function" && g instanceof scope);
}

/** Whether a hostname is a loopback address (http is allowed there, for mocks and tests). */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
