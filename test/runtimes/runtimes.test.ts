/**
 * The runtime matrix. The browser bundle of the root entry (test/runtimes/probe.ts
 * bundled by esbuild, platform browser) runs against Prism on 127.0.0.1 in:
 *
 * - Chromium (Debian's `chromium`, driven by playwright-core with its executable path), running the
 *   browser build (scripts/browser-build.mjs, the package's browser condition), loaded from
 *   another local origin so every call to Prism is cross-origin (preflight included): the main
 *   thread and a dedicated, a shared and a service worker;
 * - workerd, Bun, Deno, and Node 20.19.0 (the floor of "engines"), 20 (this machine's), 22, 24 and
 *   26 (the latest); in each Node, `require()` of the package through its export map too.
 *
 * In each it checks the calls work, the server-only guard (refused in every browser context,
 * accepted server-side), and the browser hints of a CORS failure and a hidden x-request-id (and
 * that server-side runtimes read the request id instead). Versions are those of runtimes.json and
 * are checked against what each runtime reports.
 *
 * Slow and needs the runtimes, which `.ci/run` installs outside the project (RUNTIMES_DIR): not part
 * of `npm test`; `RUNTIMES_DIR=… npm run test:runtimes` runs it.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { esbuildBrowserSwaps } from "../../scripts/browser-build.mjs";
import { API_VERSION } from "../../src/index.ts";
import { freePort } from "../support/free-port.ts";
import type { ProbeInput, ProbeResult } from "./probe.ts";
import { hiddenRequestIdServer, type Local, noCorsServer, pageServer } from "./servers.ts";

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, "..", "..");
const dir = process.env.RUNTIMES_DIR ?? "";
const enabled = process.env.RUNTIME_TESTS === "1" && dir !== "";
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const versions = JSON.parse(await readFile(join(here, "runtimes.json"), "utf8")) as Record<string, string>;
const SLOW = 120_000;

const bin = (...parts: string[]) => join(dir, "node_modules", ...parts);

let scratch = "";
let input: ProbeInput;
const servers: Local[] = [];

beforeAll(async () => {
  if (!enabled) return;
  scratch = await mkdtemp(join(tmpdir(), "ai-runtimes-"));
  const bundle = (outfile: string, plugins: Plugin[]) =>
    build({
      entryPoints: [join(here, "probe.ts")],
      plugins,
      bundle: true,
      platform: "browser",
      format: "esm",
      target: "es2022",
      outfile: join(scratch, outfile),
      logLevel: "silent",
    });
  // Chromium runs the browser build (what the package's browser condition resolves to); the
  // server runtimes the default one.
  await Promise.all([bundle("probe.mjs", []), bundle("probe-browser.mjs", [esbuildBrowserSwaps(ROOT)])]);
  const [noCors, hidden] = await Promise.all([noCorsServer(), hiddenRequestIdServer()]);
  servers.push(noCors, hidden);
  input = { baseUrl: inject("prismUrl"), noCorsUrl: `${noCors.url}/api/v3`, hiddenIdUrl: `${hidden.url}/api/v3` };
}, SLOW);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  if (scratch) await rm(scratch, { recursive: true, force: true });
}, SLOW); // a scratch tree of installs takes long to delete on a busy disk

function run(file: string, args: readonly string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((done, fail) => {
    execFile(file, args, { cwd: scratch, env: { ...process.env, ...env }, timeout: SLOW }, (error, stdout, stderr) => {
      if (error) fail(new Error(`${file} ${args.join(" ")} failed:\n${stdout}\n${stderr}`, { cause: error }));
      else done(stdout);
    });
  });
}

/** A module that runs the probe and prints its result as the last line. */
async function writeCli(): Promise<string> {
  const file = join(scratch, "cli.mjs");
  await writeFile(
    file,
    `import { probe } from "./probe.mjs";\nconsole.log(JSON.stringify(await probe(${JSON.stringify(input)})));\n`,
  );
  return file;
}

const lastJson = (stdout: string) => JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as ProbeResult;

function expectServerSide(result: ProbeResult): void {
  expect(result).toMatchObject({ guard: "accepted", event: "evt-1001" });
  expect(result.ids.length).toBeGreaterThan(0);
  // Server-side, nothing hides the response: the error carries its request id and no browser hint.
  expect(result.noCors).toMatch(/^NotFoundError: .*\[request id rid-no-cors\]$/);
  expect(result.hiddenId).toMatch(/^NotFoundError: .*\[request id rid-hidden\]$/);
}

function expectBrowser(result: ProbeResult): void {
  expect(result).toMatchObject({ guard: "refused", event: "evt-1001" });
  expect(result.ids.length).toBeGreaterThan(0);
  expect(result.noCors).toMatch(/^NetworkError: .*\(in a browser usually CORS: .*\) after 1 attempt/);
  expect(result.hiddenId).toMatch(/^NotFoundError: .*Access-Control-Expose-Headers/);
}

describe.skipIf(!enabled)("runtime matrix (npm run test:runtimes)", () => {
  const nodes: [string, string, string][] = [
    ["20.19 (the floor)", bin("node20floor", "bin", "node"), versions.node20floor ?? ""],
    ["20 (this machine's)", process.execPath, process.versions.node],
    ["22", bin("node22", "bin", "node"), versions.node22 ?? ""],
    ["24", bin("node24", "bin", "node"), versions.node24 ?? ""],
    ["26 (the latest)", bin("node26", "bin", "node"), versions.node26 ?? ""],
  ];
  it.each(nodes)(
    "Node %s",
    async (label, node, version) => {
      const result = lastJson(await run(node, [await writeCli()]));
      expect(version.startsWith(label.split(" ")[0] ?? "")).toBe(true);
      expect(result.runtime).toBe(`Node ${version}`);
      expectServerSide(result);
    },
    SLOW,
  );

  // package.json "engines": require() of the ES module package works from Node 20.19 (ERR_REQUIRE_ESM
  // before). Through the export map of the build (dist/, which `npm ci` builds), as a CommonJS app does.
  it.each(nodes)(
    "Node %s: require() of the package works",
    async (_label, node) => {
      const app = join(scratch, "cjs-app");
      await mkdir(join(app, "node_modules", "@audience-intelligence"), { recursive: true });
      await symlink(ROOT, join(app, "node_modules", "@audience-intelligence", "client"), "dir").catch(() => undefined);
      await writeFile(
        join(app, "main.cjs"),
        `const { createAudienceClient, API_VERSION } = require("@audience-intelligence/client");
console.log(JSON.stringify({ create: typeof createAudienceClient, API_VERSION }));
`,
      );
      const printed = JSON.parse((await run(node, [join(app, "main.cjs")])).trim()) as Record<string, string>;
      expect(printed).toEqual({ create: "function", API_VERSION });
    },
    SLOW,
  );

  it(
    "Bun",
    async () => {
      const result = lastJson(await run(bin(".bin", "bun"), [await writeCli()]));
      expect(result.runtime).toBe(`Bun ${versions.bun}`);
      expectServerSide(result);
    },
    SLOW,
  );

  it(
    "Deno",
    async () => {
      const result = lastJson(
        await run(bin(".bin", "deno"), ["run", "--allow-net", await writeCli()], {
          DENO_DIR: join(scratch, "deno"),
          DENO_NO_UPDATE_CHECK: "1",
        }),
      );
      expect(result.runtime).toBe(`Deno ${versions.deno}`);
      expectServerSide(result);
    },
    SLOW,
  );

  it(
    "workerd",
    async () => {
      const reported = await run(bin(".bin", "workerd"), ["--version"]);
      // workerd 1.YYYYMMDD.N reports its date as YYYY-MM-DD.
      const date = (versions.workerd ?? "").split(".")[1] ?? "";
      expect(reported).toContain(`${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}`);
      const port = await freePort();
      await writeFile(
        join(scratch, "worker.mjs"),
        `import { probe } from "./probe.mjs";
const input = ${JSON.stringify(input)};
export default { async fetch() { return new Response(JSON.stringify(await probe(input))); } };
`,
      );
      await writeFile(
        join(scratch, "config.capnp"),
        `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .probeWorker),
    (name = "internet", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const probeWorker :Workerd.Worker = (
  modules = [
    (name = "worker.mjs", esModule = embed "worker.mjs"),
    (name = "probe.mjs", esModule = embed "probe.mjs"),
  ],
  compatibilityDate = "2026-11-01",
  globalOutbound = "internet",
);
`,
      );
      const child = spawn(bin(".bin", "workerd"), ["serve", join(scratch, "config.capnp")], {
        cwd: scratch,
        stdio: ["ignore", "pipe", "pipe"],
      });
      try {
        const result = (await (await waitForServer(`http://127.0.0.1:${port}/`, child)).json()) as ProbeResult;
        expect(result.runtime).toBe("Cloudflare-Workers");
        expectServerSide(result);
      } finally {
        await stop(child);
      }
    },
    SLOW,
  );

  describe("Chromium (Debian chromium, playwright-core), page on another origin than Prism", () => {
    type Browser = { close(): Promise<void>; version(): string; newPage(): Promise<Page> };
    type Page = {
      goto(url: string): Promise<unknown>;
      evaluate<T>(fn: string): Promise<T>;
      on(event: "console", listener: (message: { text(): string }) => void): void;
    };
    let browser: Browser | undefined;
    let page: Page;
    let results: Record<string, ProbeResult | { error: string }> = {};

    beforeAll(async () => {
      const { chromium } = (await import(pathToFileURL(bin("playwright-core", "index.mjs")).href)) as {
        chromium: { launch(options: Record<string, unknown>): Promise<Browser> };
      };
      const probe = await readFile(join(scratch, "probe-browser.mjs"), "utf8");
      const site = await pageServer(browserFiles(probe, input));
      servers.push(site);
      browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] });
      page = await browser.newPage();
      const logs: string[] = [];
      page.on("console", (message) => logs.push(message.text()));
      await page.goto(`${site.url}/index.html`);
      results = await page.evaluate("window.matrix");
      if (Object.keys(results).length !== 4) throw new Error(`page results: ${JSON.stringify(results)} ${logs}`);
    }, SLOW);

    afterAll(async () => {
      await browser?.close();
    });

    it("is the pinned Chromium", () => {
      const major = browser?.version().split(".")[0];
      expect(major).toMatch(/^\d+$/);
      // The user agent carries the major version only (reduced user agent).
      expect((results.main as ProbeResult).runtime).toContain(`Chrome/${major}.`);
    });

    it.each(["main", "dedicated worker", "shared worker", "service worker"])("%s", (context) => {
      const result = results[context] as ProbeResult & { error?: string };
      expect(result.error).toBeUndefined();
      expectBrowser(result);
    });
  });
});

/** The page and its workers: each runs the probe and the page collects the four results. */
function browserFiles(probe: string, input: ProbeInput): Record<string, string> {
  const data = JSON.stringify(input);
  const onMessage = `async (data) => { try { return await probe(data); } catch (e) { return { error: String(e && e.stack || e) }; } }`;
  return {
    "/probe.mjs": probe,
    "/dedicated.mjs": `import { probe } from "./probe.mjs";
const answer = ${onMessage};
self.onmessage = async (event) => self.postMessage(await answer(event.data));
`,
    "/shared.mjs": `import { probe } from "./probe.mjs";
const answer = ${onMessage};
self.onconnect = (event) => {
  const port = event.ports[0];
  port.onmessage = async (message) => port.postMessage(await answer(message.data));
};
`,
    "/service.mjs": `import { probe } from "./probe.mjs";
const answer = ${onMessage};
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
self.addEventListener("message", (event) => event.waitUntil(answer(event.data).then((r) => event.ports[0].postMessage(r))));
`,
    "/index.html": `<!doctype html><meta charset="utf-8"><title>runtime matrix</title>
<script type="module">
import { probe } from "./probe.mjs";
const input = ${data};
const reply = (start) => new Promise((resolve) => start(resolve));
const guard = async (run) => { try { return await run(); } catch (e) { return { error: String(e && e.stack || e) }; } };
window.matrix = (async () => ({
  main: await guard(() => probe(input)),
  "dedicated worker": await guard(() => reply((resolve) => {
    const worker = new Worker("./dedicated.mjs", { type: "module" });
    worker.onmessage = (event) => resolve(event.data);
    worker.onerror = (event) => resolve({ error: "worker error: " + event.message });
    worker.postMessage(input);
  })),
  "shared worker": await guard(() => reply((resolve) => {
    const worker = new SharedWorker("./shared.mjs", { type: "module" });
    worker.port.onmessage = (event) => resolve(event.data);
    worker.onerror = (event) => resolve({ error: "shared worker error: " + event.message });
    worker.port.postMessage(input);
  })),
  "service worker": await guard(async () => {
    await navigator.serviceWorker.register("./service.mjs", { type: "module", scope: "./" });
    const registration = await navigator.serviceWorker.ready;
    return reply((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = (event) => resolve(event.data);
      registration.active.postMessage(input, [channel.port2]);
    });
  }),
}))();
</script>
`,
  };
}

async function waitForServer(url: string, child: ChildProcess): Promise<Response> {
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      return await fetch(url);
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`${url} never answered:\n${output}`);
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once("exit", () => done());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 2_000).unref();
  });
}
