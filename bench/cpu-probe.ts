/**
 * One variant of the request-path benchmark in its own fresh process (bench/overhead.ts and
 * bench/peers.ts fork it, one process per variant and mode), so garbage one variant leaves behind
 * is never collected on another's time.
 *
 * argv[2]: a JSON {@link ProbeTask}. Replies over IPC with a {@link ProbeResult}:
 * - mode `stub`: CPU µs per call (`process.cpuUsage`, user + system, GC threads included) with a
 *   `fetch` that answers a canned Response at once, no network: the library's own cost;
 * - mode `http`: calls/s against the bench server's fast mount at concurrency 1 and 8.
 */
import createClient from "openapi-fetch";
import type { paths } from "../generated/schema.ts";
import { CLIENT_DEFAULTS } from "../src/limits.ts";
import { drive } from "./support.ts";
import { undiciFetch } from "./undici-fetch.ts";

export type VariantName =
  | "client"
  | "client, undici transport"
  | "client, before"
  | "bare openapi-fetch"
  | "bare openapi-fetch, timed"
  | "ofetch"
  | "ky"
  | "axios, fetch adapter"
  | "axios, default (http) adapter"
  | "openai core";

export interface ProbeTask {
  readonly variant: VariantName;
  readonly mode: "stub" | "http";
  /** The built client (bench/support.ts buildPackage()). */
  readonly clientFile: string;
  /** Variant "client, before": the client built from another checkout (bench/overhead.ts `--before=`). */
  readonly beforeFile?: string | undefined;
  /** bench/peers/index.mjs as a file URL, for the peers. */
  readonly peersUrl: string;
  /** The fast mount, for mode `http`. */
  readonly base: string;
  /** `stub`: calls per sample; `http`: calls per sample at concurrency 1 (twice that at 8). */
  readonly calls: number;
  readonly samples: number;
  /**
   * mode `stub`: samples taken after `samples`, of which the later half is the settled figure
   * ({@link ProbeResult.cpuSettledUs}); 0 or absent: none.
   */
  readonly settleSamples?: number | undefined;
}

export interface ProbeResult {
  readonly variant: VariantName;
  readonly mode: "stub" | "http";
  /** mode `stub`: CPU µs per call, one figure per sample. */
  readonly cpuUs?: number[];
  /**
   * mode `stub`: CPU µs per call of the later half of the samples taken after `cpuUs`'s, once the
   * JIT's compiles and the heap's growth are behind: what a long-running process pays per call.
   */
  readonly cpuSettledUs?: number[];
  /** mode `http`: calls/s per sample. */
  readonly c1?: number[];
  readonly c8?: number[];
  /** mode `http`: this process's CPU µs per call per sample (less moved by other load than calls/s). */
  readonly c1CpuUs?: number[];
  readonly c8CpuUs?: number[];
}

export const PARTNER = "partner-id-bench";
const STUB_BASE = "https://api.example.test/api/v3";

type Call = (i: number) => Promise<unknown>;

const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
const EXP = Math.floor(Date.now() / 1000) + 3600;
/** What the stub signs in with and the other variants send (neither the stub nor the bench server checks it). */
const ACCESS_TOKEN = `${b64({ alg: "none" })}.${b64({ exp: EXP, token_use: "access" })}.sig`;
type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Answers every call at once: the sign-in's tokens on /auth, a small event elsewhere. */
function stubFetch(): FetchLike {
  const tokens = JSON.stringify({
    AccessToken: ACCESS_TOKEN,
    IdToken: `${b64({ alg: "none" })}.${b64({ exp: EXP, groups: [PARTNER] })}.sig`,
    RefreshToken: "refresh-token-value",
  });
  const event = JSON.stringify({ id: "evt-1", name: "Event 1", frontend_status: "DEFAULT", capacity: 1200 });
  return async (input) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    return new Response(url.endsWith("/auth") ? tokens : event, {
      status: 200,
      headers: { "content-type": "application/json", "x-request-id": "stub" },
    });
  };
}

function check(status: number, variant: string): void {
  if (status !== 200) throw new Error(`${variant}: HTTP ${status}`);
}

function expectEvent(data: unknown, variant: string): void {
  if (typeof (data as { id?: unknown } | undefined)?.id !== "string")
    throw new Error(`${variant}: no event in the answer`);
}

/**
 * Builds the variant's call: GET /events/{eid} with the bearer token and the partner header, the
 * JSON body parsed, through each library's usual API. `fetchFn` is the stub, or undefined for
 * the library's own transport (real HTTP).
 */
async function callOf(task: ProbeTask, fetchFn: FetchLike | undefined): Promise<Call> {
  const base = fetchFn ? STUB_BASE : task.base;
  const eid = (i: number) => `evt-${i % 100}`;
  const headers = { Authorization: `Bearer ${ACCESS_TOKEN}`, "X-Preferred-Partner-Id": PARTNER };
  const name = task.variant;
  // The peers live in bench/peers/node_modules, outside the root package: imported by URL, untyped.
  // biome-ignore lint/suspicious/noExplicitAny: the peers' types are not installed at the root
  const peers = async (): Promise<any> => import(task.peersUrl);
  switch (name) {
    case "client":
    case "client, before":
    case "client, undici transport": {
      const file = name === "client, before" ? task.beforeFile : task.clientFile;
      if (!file) throw new Error("client, before: no --before build");
      const { createAudienceClient } = (await import(file)) as typeof import("../src/index.ts");
      const credentials = { username: "bench@example.test", password: "bench-password" };
      const transport = name === "client, undici transport" && !fetchFn ? undiciFetch() : fetchFn;
      const client = createAudienceClient(
        transport
          ? { baseUrl: base, credentials, fetch: transport as (r: Request) => Promise<Response> }
          : { baseUrl: base, credentials },
      );
      return async (i) => {
        const { data, response } = await client.GET("/events/{eid}", { params: { path: { eid: eid(i) } } });
        check(response.status, name);
        expectEvent(data, name);
      };
    }
    case "bare openapi-fetch":
    case "bare openapi-fetch, timed": {
      const bare = createClient<paths>({
        baseUrl: base,
        headers: { Authorization: headers.Authorization },
        ...(fetchFn ? { fetch: fetchFn as (r: Request) => Promise<Response> } : {}),
      });
      const params = (i: number) => ({ path: { eid: eid(i) }, header: { "X-Preferred-Partner-Id": PARTNER } });
      if (name === "bare openapi-fetch")
        return async (i) => {
          const { data, response } = await bare.GET("/events/{eid}", { params: params(i) });
          check(response.status, name);
          expectEvent(data, name);
        };
      // The least a client that bounds its attempts pays (Section 8.2): one AbortController and one
      // timer per request, at the client's default attempt timeout.
      return async (i) => {
        const controller = new AbortController();
        const timer = setTimeout(() => controller.abort(), CLIENT_DEFAULTS.attemptTimeoutMs);
        try {
          const { data, response } = await bare.GET("/events/{eid}", { params: params(i), signal: controller.signal });
          check(response.status, name);
          expectEvent(data, name);
        } finally {
          clearTimeout(timer);
        }
      };
    }
    case "ofetch": {
      const { ofetch } = await peers();
      const api = ofetch.create({ baseURL: base, headers }, fetchFn ? { fetch: fetchFn } : {});
      return async (i) => expectEvent(await api(`/events/${eid(i)}`), name);
    }
    case "ky": {
      const { ky } = await peers();
      const api = ky.create({ prefixUrl: base, headers, ...(fetchFn ? { fetch: fetchFn } : {}) });
      return async (i) => expectEvent(await api.get(`events/${eid(i)}`).json(), name);
    }
    case "axios, fetch adapter":
    case "axios, default (http) adapter": {
      const { axios } = await peers();
      const fetchAdapter = name === "axios, fetch adapter";
      const api = axios.create({
        baseURL: base,
        headers,
        ...(fetchAdapter ? { adapter: "fetch" } : {}),
        ...(fetchFn ? { env: { fetch: fetchFn } } : {}),
      });
      return async (i) => {
        const response = await api.get(`/events/${eid(i)}`);
        check(response.status, name);
        expectEvent(response.data, name);
      };
    }
    case "openai core": {
      const { OpenAI } = await peers();
      const api = new OpenAI({
        apiKey: ACCESS_TOKEN,
        baseURL: base,
        defaultHeaders: { "X-Preferred-Partner-Id": PARTNER },
        ...(fetchFn ? { fetch: fetchFn } : {}),
      });
      return async (i) => expectEvent(await api.get(`/events/${eid(i)}`), name);
    }
  }
}

async function stubMode(task: ProbeTask): Promise<ProbeResult> {
  if (task.variant === "axios, default (http) adapter") throw new Error("axios's http adapter takes no fetch");
  const call = await callOf(task, stubFetch());
  for (let i = 0; i < Math.max(2_000, task.calls / 2); i++) await call(i); // sign-in, JIT
  const sample = async (): Promise<number> => {
    const before = process.cpuUsage();
    for (let i = 0; i < task.calls; i++) await call(i);
    const used = process.cpuUsage(before);
    return (used.user + used.system) / task.calls;
  };
  const cpuUs: number[] = [];
  for (let s = 0; s < task.samples; s++) cpuUs.push(await sample());
  const later: number[] = [];
  for (let s = 0; s < (task.settleSamples ?? 0); s++) later.push(await sample());
  const cpuSettledUs = later.slice(Math.floor(later.length / 2));
  return { variant: task.variant, mode: "stub", cpuUs, ...(cpuSettledUs.length ? { cpuSettledUs } : {}) };
}

async function httpMode(task: ProbeTask): Promise<ProbeResult> {
  const call = await callOf(task, undefined);
  await drive(300, 8, call); // sign-in, connections, JIT
  await drive(200, 1, call);
  const c1: number[] = [];
  const c8: number[] = [];
  const c1CpuUs: number[] = [];
  const c8CpuUs: number[] = [];
  const sample = async (calls: number, concurrency: number, perSecond: number[], cpuUs: number[]) => {
    const before = process.cpuUsage();
    const ms = await drive(calls, concurrency, call);
    const used = process.cpuUsage(before);
    perSecond.push((calls * 1000) / ms);
    cpuUs.push((used.user + used.system) / calls);
  };
  for (let s = 0; s < task.samples; s++) {
    await sample(task.calls, 1, c1, c1CpuUs);
    await sample(2 * task.calls, 8, c8, c8CpuUs);
  }
  return { variant: task.variant, mode: "http", c1, c8, c1CpuUs, c8CpuUs };
}

const task = JSON.parse(process.argv[2] ?? "null") as ProbeTask | null;
if (!task) throw new Error("usage: cpu-probe.ts <task as JSON>");
const result = task.mode === "stub" ? await stubMode(task) : await httpMode(task);
// Exit once the figures are sent: an undici Agent or a peer's keep-alive sockets would hold the loop open.
process.send?.(result, () => process.exit(0));
