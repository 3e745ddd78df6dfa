/**
 * Queued calls, in a fresh `node --expose-gc` process (bench/queue.ts forks one per figure).
 * argv: <built client file URL> <N> <shared|own>.
 *
 * A stub `fetch` holds every answer once the warm-up is over, so the first 8 calls take the
 * partner's slots and never return; then N more calls are made, each waiting for a slot. The heap
 * after `gc()` before and after those N calls gives the memory per queued call. Then one shared
 * AbortController aborts them all (`shared`), or each call's own controller is aborted in turn
 * (`own`), and the time until every call has settled is the cost of aborting them.
 *
 * Replies over IPC with a {@link QueueFigures}.
 */

export interface QueueFigures {
  readonly n: number;
  readonly mode: "shared" | "own";
  /** What `client.concurrency()` said before the abort (undefined when the client has no such method). */
  readonly queued: number | undefined;
  readonly active: number | undefined;
  readonly bytesPerCall: number;
  readonly heapBytes: number;
  /** From the abort to the last call settled. */
  readonly abortMs: number;
  /** How the N calls ended: error name → count. */
  readonly outcomes: Record<string, number>;
}

async function heapAfterGc(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("the queue probe needs node --expose-gc");
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 10)); // let finalizers run
  }
  return process.memoryUsage().heapUsed;
}

async function probe(clientFile: string, n: number, mode: "shared" | "own"): Promise<QueueFigures> {
  const { createAudienceClient } = (await import(clientFile)) as typeof import("../src/index.ts");
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const exp = Math.floor(Date.now() / 1000) + 3600;
  const tokens = JSON.stringify({
    AccessToken: `${b64({ alg: "none" })}.${b64({ exp, token_use: "access" })}.sig`,
    IdToken: `${b64({ alg: "none" })}.${b64({ exp, groups: ["partner-id-bench"] })}.sig`,
    RefreshToken: "refresh-token-value",
  });
  const event = JSON.stringify({ id: "evt-1", name: "Event 1", frontend_status: "DEFAULT", capacity: 1200 });
  const json = (text: string) => new Response(text, { headers: { "content-type": "application/json" } });
  let hold = false;
  const held: Array<(r: Response) => void> = [];
  const stub = (request: Request): Promise<Response> => {
    if (request.url.endsWith("/auth")) return Promise.resolve(json(tokens));
    if (hold) return new Promise((resolve) => held.push(resolve));
    return Promise.resolve(json(event));
  };
  const client = createAudienceClient({
    baseUrl: "https://api.example.test/api/v3",
    credentials: { username: "bench-user", password: "bench-password-1" },
    fetch: stub,
  });
  const get = (i: number, signal?: AbortSignal) =>
    client.GET("/events/{eid}", { params: { path: { eid: `evt-${i % 100}` } }, ...(signal ? { signal } : {}) });

  for (let i = 0; i < 50; i++) await get(i); // sign-in, warm-up
  hold = true;
  const busy = Array.from({ length: 8 }, (_, i) => get(i).catch(() => undefined));
  await new Promise((resolve) => setTimeout(resolve, 50));

  const shared = new AbortController();
  const own: AbortController[] = mode === "own" ? new Array(n) : [];
  const before = await heapAfterGc();
  const pending: Array<Promise<string>> = new Array(n);
  for (let i = 0; i < n; i++) {
    let signal = shared.signal;
    if (mode === "own") {
      const controller = new AbortController();
      own[i] = controller;
      signal = controller.signal;
    }
    pending[i] = get(i, signal).then(
      () => "answered",
      (e: unknown) => (e as { name?: string } | undefined)?.name ?? "error",
    );
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
  const after = await heapAfterGc();
  // Loosely typed: the method may move while the request path is reworked.
  const state = (client as { concurrency?: () => { queued?: number; active?: number } }).concurrency?.();

  const started = performance.now();
  if (mode === "own") for (const controller of own) controller.abort();
  else shared.abort();
  const results = await Promise.all(pending);
  const abortMs = performance.now() - started;

  const outcomes: Record<string, number> = {};
  for (const r of results) outcomes[r] = (outcomes[r] ?? 0) + 1;
  for (const resolve of held) resolve(json(event));
  await Promise.all(busy);
  return {
    n,
    mode,
    queued: state?.queued,
    active: state?.active,
    bytesPerCall: (after - before) / n,
    heapBytes: after - before,
    abortMs,
    outcomes,
  };
}

const [clientFile, nArg, modeArg] = process.argv.slice(2);
if (!clientFile || !nArg || (modeArg !== "shared" && modeArg !== "own"))
  throw new Error("usage: queue-probe.ts <client file URL> <N> <shared|own>");
const figures = await probe(clientFile, Number(nArg), modeArg);
process.send?.(figures, () => process.exit(0));
