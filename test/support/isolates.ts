/**
 * Eight (or N) worker services, each its own isolate in workerd (Miniflare 4), running
 * test/support/workerd/isolate-worker.ts against a local API, for the Durable Object tests and
 * bench. Three set-ups:
 *
 * - `direct`: one workerd; the isolates bind the `AudienceCoordinator` namespace of a coordinator
 *   service (a partner's deployment);
 * - `remote`: the objects live in a second workerd and the isolates reach them through its host
 *   worker, so that the objects' workerd can be restarted mid-run while the isolates go on;
 * - `none`: no coordinator (today's client, the baseline).
 */
import type { Miniflare, WorkerOptions } from "miniflare";
import { freePort } from "./free-port.ts";
import { bundleWorker, COMPATIBILITY_DATE, startMiniflare } from "./workerd.ts";

export type Setup = "direct" | "remote" | "none";

/** What one isolate reports for one `run`. */
export interface IsolateRun {
  readonly failed: number;
  readonly errors: readonly string[];
  readonly roundTrips: number;
  readonly warnings: number;
}

export interface Isolates {
  /** Isolate `i` makes `calls` calls at once, or one after the other (events first+1 … first+calls). */
  run(i: number, first: number, calls: number, sequential?: boolean): Promise<IsolateRun>;
  /** Every isolate's binding throws for `ms`. */
  fault(ms: number): Promise<void>;
  /** Stops the objects' workerd (`remote` only); `start()` brings it back, with empty objects. */
  stopObjects(): Promise<void>;
  startObjects(): Promise<void>;
  close(): Promise<void>;
}

const scripts = new Map<string, Promise<string>>();
const script = (file: string): Promise<string> => {
  let s = scripts.get(file);
  if (!s) {
    s = bundleWorker(file);
    scripts.set(file, s);
  }
  return s;
};

export async function startIsolates(options: {
  readonly setup: Setup;
  readonly count: number;
  readonly baseUrl: string;
  readonly partner: string;
  /** The coordinator's answerMs in the isolates (default: its own). */
  readonly answerMs?: number;
}): Promise<Isolates> {
  const [isolateScript, hostScript] = await Promise.all([script("isolate-worker.ts"), script("coordinator-worker.ts")]);
  const host: WorkerOptions = {
    name: "coordinator",
    modules: true,
    script: hostScript,
    compatibilityDate: COMPATIBILITY_DATE,
    durableObjects: { AUDIENCE_COORDINATOR: "AudienceCoordinator" },
  };
  let objects: Miniflare | undefined;
  const objectsPort = options.setup === "remote" ? await freePort() : 0;
  const startObjects = async () => {
    objects = startMiniflare({ ...host, host: "127.0.0.1", port: objectsPort } as ConstructorParameters<
      typeof Miniflare
    >[0]);
    await objects.ready;
  };
  if (options.setup === "remote") await startObjects();
  const isolate = (i: number): WorkerOptions => ({
    name: `isolate-${i}`,
    modules: true,
    script: isolateScript,
    compatibilityDate: COMPATIBILITY_DATE,
    ...(options.setup === "direct"
      ? { durableObjects: { AUDIENCE_COORDINATOR: { className: "AudienceCoordinator", scriptName: "coordinator" } } }
      : {}),
    bindings: {
      ...(options.answerMs ? { ANSWER_MS: String(options.answerMs) } : {}),
      ...(options.setup === "remote" ? { COORDINATOR_URL: `http://127.0.0.1:${objectsPort}` } : {}),
    },
  });
  const workers = Array.from({ length: options.count }, (_, i) => isolate(i));
  const mf = startMiniflare({ workers: options.setup === "direct" ? [...workers, host] : workers });
  await mf.ready;
  type Fetcher = { fetch(url: string): Promise<Response> };
  const fetchers = (await Promise.all(workers.map((w) => mf.getWorker(w.name as string)))) as unknown as Fetcher[];
  const get = (i: number, path: string): Promise<Response> => (fetchers[i] as Fetcher).fetch(`http://isolate${path}`);
  return {
    async run(i, first, calls, sequential) {
      const q = new URLSearchParams({
        base: options.baseUrl,
        partner: options.partner,
        first: String(first),
        calls: String(calls),
        ...(sequential ? { sequential: "1" } : {}),
      });
      const response = await get(i, `/run?${q}`);
      return (await response.json()) as IsolateRun;
    },
    async fault(ms) {
      await Promise.all(fetchers.map(async (_, i) => (await get(i, `/fault?ms=${ms}`)).text()));
    },
    async stopObjects() {
      await objects?.dispose();
      objects = undefined;
    },
    startObjects,
    async close() {
      await Promise.all([mf.dispose(), objects?.dispose()]);
    },
  };
}
