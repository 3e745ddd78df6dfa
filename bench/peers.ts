/**
 * (peers) Peer HTTP clients side by side with the client and bare openapi-fetch:
 * ofetch, ky, axios (its fetch adapter and its default http adapter) and openai core (the `openai`
 * package's request path: `client.get(path)` with `baseURL` on the bench server). Same probes and
 * pairing as section (a) (bench/cpu-probe.ts, bench/per-process.ts): one fresh process per variant.
 *
 * The peers are devDependencies of the benchmark only: bench/peers/package.json and its lockfile,
 * installed here on first use (`npm ci --prefix bench/peers`), never by the root `npm ci`.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { VariantName } from "./cpu-probe.ts";
import { figures, httpFigures, httpTable, PEERS_URL, pairedRuns, stubCpuTable } from "./per-process.ts";
import { type BenchServer, buildPackage, type Section } from "./support.ts";

const PAIRS = Number(process.argv.find((a) => a.startsWith("--pairs="))?.slice("--pairs=".length) ?? 3);
const STUB_CALLS = 3_000;
const HTTP_CALLS = 500;
const SAMPLES = 3;
const BARE: VariantName = "bare openapi-fetch";

/** Installs bench/peers/node_modules from its lockfile when it is missing. */
export function ensurePeers(): void {
  const dir = fileURLToPath(new URL("./peers/", import.meta.url));
  if (existsSync(`${dir}node_modules`)) return;
  console.error("bench: installing the peers (npm ci --prefix bench/peers)");
  const out = spawnSync("npm", ["ci", "--prefix", dir, "--no-audit", "--no-fund"], { stdio: "inherit" });
  if (out.status !== 0) throw new Error(`npm ci --prefix bench/peers exited with ${out.status}`);
}

/** The installed version of each peer, for the report. */
async function versions(): Promise<string> {
  const names = ["ofetch", "ky", "axios", "openai"];
  const { createRequire } = await import("node:module");
  const require = createRequire(fileURLToPath(new URL("./peers/package.json", import.meta.url)));
  return names
    .map((n) => `${n} ${(require(`./node_modules/${n}/package.json`) as { version: string }).version}`)
    .join(", ");
}

export async function peers(server: BenchServer): Promise<Section> {
  ensurePeers();
  const clientFile = pathToFileURL(await buildPackage()).href;
  const base = { clientFile, peersUrl: PEERS_URL, base: server.fast, samples: SAMPLES };
  const log = (line: string) => console.error(`bench peers: ${line}`);

  const stubVariants: VariantName[] = ["client", BARE, "ofetch", "ky", "axios, fetch adapter", "openai core"];
  const httpVariants: VariantName[] = [...stubVariants.slice(0, 5), "axios, default (http) adapter", "openai core"];
  const cpu = figures(
    await pairedRuns({ ...base, calls: STUB_CALLS }, "stub", stubVariants, PAIRS, log),
    (r) => r.cpuUs,
  );
  const httpRuns = await pairedRuns({ ...base, calls: HTTP_CALLS }, "http", httpVariants, PAIRS, log);
  const http = httpFigures(httpRuns);

  const body = [
    `Peers installed from bench/peers/package-lock.json: ${await versions()} (ky 1.x and openai 6.x: their newer majors need Node 22). Each library does what a user would write: GET /events/{eid} with the bearer token and the partner header, the JSON body parsed (ofetch \`ofetch.create({ baseURL, headers })\`, ky \`ky.create({ prefixUrl, headers }).get(…).json()\`, axios \`axios.create({ baseURL, headers, adapter })\`, openai \`new OpenAI({ apiKey, baseURL, defaultHeaders }).get(path)\`; each with its default retry settings; none retries here). ${PAIRS} pairs, one fresh process per variant per pair, order rotated; figures are the median of the pairs (min–max).`,
    "",
    `**CPU per call with a stub \`fetch\`** (each library's own \`fetch\` option: axios's \`env.fetch\` with \`adapter: "fetch"\`; axios's http adapter takes none), ${STUB_CALLS} sequential calls per sample, ${SAMPLES} samples per process:`,
    "",
    stubCpuTable(stubVariants, cpu, BARE),
    "",
    `**HTTP throughput** against the fast mount, ${HTTP_CALLS} calls per sample at concurrency 1 and ${2 * HTTP_CALLS} at 8:`,
    "",
    httpTable(httpVariants, http, BARE),
  ].join("\n");
  return { title: "(peers) The client beside ofetch, ky, axios and openai core", body, targets: [] };
}
