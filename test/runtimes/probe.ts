/**
 * What test/runtimes/runtimes.test.ts runs in every runtime of the matrix (Chromium's main thread
 * and its dedicated, shared and service workers, workerd, Bun, Deno, Node 20–26): the browser
 * bundle of the root entry, against Prism and two local servers. Bundled by esbuild into one ES
 * module with no imports, so each runtime loads the same file.
 */
import { createAudienceClient, listEvents, unwrap } from "../../src/index.ts";

export interface ProbeInput {
  /** Prism, `/api/v3` included. */
  readonly baseUrl: string;
  /** A server that answers 404 with an x-request-id and no CORS headers at all. */
  readonly noCorsUrl: string;
  /** A server that allows CORS (preflight included) but does not expose x-request-id. */
  readonly hiddenIdUrl: string;
}

export interface ProbeResult {
  readonly runtime: string;
  /** Whether `credentials` were accepted without `dangerouslyAllowBrowser` (server-side only). */
  readonly guard: "accepted" | "refused";
  readonly event: string;
  readonly ids: readonly string[];
  readonly noCors: string;
  readonly hiddenId: string;
}

const session = { accessToken: "runtime-matrix-token" };
const partnerId = "partner-id-runtime-matrix";

function runtimeName(): string {
  const g = globalThis as Record<string, unknown> & { navigator?: { userAgent?: string } };
  if (g.navigator?.userAgent === "Cloudflare-Workers") return "Cloudflare-Workers"; // workerd also has a process.versions.node
  const versions = (g.process as { versions?: Record<string, string> } | undefined)?.versions;
  if (versions?.bun) return `Bun ${versions.bun}`;
  const deno = g.Deno as { version?: { deno?: string } } | undefined;
  if (deno?.version?.deno) return `Deno ${deno.version.deno}`;
  if (versions?.node) return `Node ${versions.node}`;
  return g.navigator?.userAgent ?? "unknown";
}

/** The message of the error a call ends with (or "ok"). */
async function failureOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return "ok";
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
}

export async function probe(input: ProbeInput): Promise<ProbeResult> {
  let guard: ProbeResult["guard"] = "accepted";
  try {
    createAudienceClient({ baseUrl: input.baseUrl, credentials: { username: "u", password: "matrix-password" } });
  } catch (error) {
    if (!/server-side only/.test((error as Error).message)) throw error;
    guard = "refused";
  }
  const client = createAudienceClient({ baseUrl: input.baseUrl, session, partnerId });
  const event = unwrap(await client.GET("/events/{eid}", { params: { path: { eid: "evt-1001" } } }));
  const ids: string[] = [];
  for await (const listed of listEvents(client, { maxItems: 3 })) ids.push(listed.id);
  const once = { maxAttempts: 1 };
  const read = (baseUrl: string) => async () => {
    const other = createAudienceClient({ baseUrl, session, partnerId, retry: once });
    unwrap(await other.GET("/events/{eid}", { params: { path: { eid: "evt-1001" } } }));
  };
  return {
    runtime: runtimeName(),
    guard,
    event: event.id,
    ids,
    noCors: await failureOf(read(input.noCorsUrl)),
    hiddenId: await failureOf(read(input.hiddenIdUrl)),
  };
}
