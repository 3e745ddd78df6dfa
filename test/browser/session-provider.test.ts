/**
 * The session provider (`session` as an async function, session/provider.ts) proven in Debian's
 * Chromium, on the page's thread and in a dedicated worker, with the package's browser build: the
 * page and the worker are bundled by esbuild from the package's name, through its export map with
 * the `browser` and `worker` conditions, as an application's bundler does (so `npm run build` must
 * have made dist/ first, as .ci/run does). Against token-site.ts: the application's backend that
 * the provider asks, and an API that checks the `exp` of every token it receives.
 *
 * Needs Chromium and playwright-core (RUNTIMES_DIR, as .ci/run installs them): not part of
 * `npm test`; `RUNTIMES_DIR=… npm run test:browser`.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BROWSER_SWAPS, browserSibling } from "../../scripts/browser-build.mjs";
import { createAudienceClient, ValidationError } from "../../src/index.ts";
import { type Browser, CHROMIUM_START_MS, launchChromium, openPage, type Page } from "../support/chromium.ts";
import type * as Scenarios from "./page/scenarios.ts";
import { type ApiCall, startTokenSite, type TokenSite } from "./token-site.ts";

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, "..", "..");
// Asked for without RUNTIMES_DIR, it fails rather than skip: CI must never pass it silently.
const enabled = process.env.BROWSER_TESTS === "1";
const SCENARIO_MS = 60_000;

/** Text of the server build's sign-in, refresh exchange and /auth failure budget (none in a page's bundle). */
const SERVER_ONLY_TEXT = [
  "the sign-in returned no tokens",
  "the refresh token was refused",
  "/auth is not tried again",
  "another process of the group met a 429 or 5xx on /auth",
];

interface Bundle {
  readonly text: string;
  /** The package's files in the bundle, relative to the repository. */
  readonly packageFiles: readonly string[];
  /** The src/ modules those files were built from (their source maps). */
  readonly sources: ReadonlySet<string>;
}

/** `entry` bundled as an application's bundler does: the package by its name, through its exports with `conditions`. */
async function bundle(entry: string, conditions: "browser" | "worker"): Promise<Bundle> {
  const platform =
    conditions === "browser"
      ? { platform: "browser" as const }
      : { platform: "neutral" as const, conditions: ["worker"], mainFields: ["module", "main"] };
  const result = await build({
    entryPoints: [join(here, "page", entry)],
    bundle: true,
    format: "esm",
    target: "es2022",
    write: false,
    metafile: true,
    logLevel: "silent",
    // Not the repository's tsconfig, whose `paths` map the package's name to src/ for tsc.
    tsconfigRaw: {},
    ...platform,
  });
  const packageFiles = Object.keys(result.metafile.inputs).filter(
    (f) => !f.startsWith("node_modules/") && !f.startsWith("test/"),
  );
  const sources = new Set<string>();
  for (const file of packageFiles.filter((f) => f.startsWith("dist/"))) {
    // An entry that only re-exports its chunks has no map.
    const map = await readFile(join(ROOT, `${file}.map`), "utf8").catch(() => '{"sources":[]}');
    for (const s of (JSON.parse(map) as { sources: string[] }).sources)
      sources.add(relative(ROOT, resolve(ROOT, dirname(file), s)));
  }
  return { text: result.outputFiles[0]?.text ?? "", packageFiles, sources };
}

/** dist/browser must exist and be newer than every file of src/ (a stale build would prove nothing). */
async function checkBuild(): Promise<void> {
  const built = await stat(join(ROOT, "dist/browser/src/index.js")).catch(() => undefined);
  if (!built) throw new Error("dist/browser/ is missing: run `npm run build` first (.ci/run builds before this step)");
  const files = (await readdir(join(ROOT, "src"), { recursive: true })).filter((f) => f.endsWith(".ts"));
  const stale = [];
  for (const f of files) if ((await stat(join(ROOT, "src", f))).mtimeMs > built.mtimeMs) stale.push(f);
  if (stale.length > 0) throw new Error(`dist/ is older than src/${stale[0]}: run \`npm run build\` first`);
}

let site: TokenSite | undefined;
let browser: Browser | undefined;
let page: Page;
const logs: string[] = [];
const bundles: Partial<Record<"page" | "worker", Bundle>> = {};

beforeAll(async () => {
  if (!enabled) return;
  await checkBuild();
  const [main, worker] = await Promise.all([bundle("main.ts", "browser"), bundle("worker.ts", "worker")]);
  Object.assign(bundles, { page: main, worker });
  const html =
    '<!doctype html><meta charset="utf-8"><title>session</title><script type="module" src="/page.js"></script>';
  site = await startTokenSite({ "/": html, "/page.js": main.text, "/worker.js": worker.text });
  browser = await launchChromium(process.env.RUNTIMES_DIR ?? "");
  page = await openPage(browser, `${site.url}/`, logs);
  await page.evaluate(
    "new Promise((r) => { const t = () => (globalThis.inWorker ? r(true) : setTimeout(t, 10)); t(); })",
  );
}, CHROMIUM_START_MS);

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

type Context = "page" | "worker";
type Result<K extends keyof typeof Scenarios> = Awaited<ReturnType<(typeof Scenarios)[K]>>;

/** Runs a scenario on the page's thread or in the worker. */
async function run<K extends keyof typeof Scenarios>(
  context: Context,
  name: K,
  ...args: unknown[]
): Promise<Result<K>> {
  const list = args.map((a) => JSON.stringify(a)).join(", ");
  const script =
    context === "page"
      ? `globalThis.scenarios.${name}(${list})`
      : `globalThis.inWorker(${JSON.stringify(name)}, ${list})`;
  try {
    return await page.evaluate<Result<K>>(script);
  } catch (error) {
    throw new Error(`${context} ${name}: ${String(error)}\npage log:\n${logs.join("\n")}`);
  }
}

const scopeOf: Record<Context, string> = { page: "Window", worker: "DedicatedWorkerGlobalScope" };
const issuedTo = (tag: string) => site?.issued.filter((i) => i.tag === tag) ?? [];
const callsOf = (tag: string) => site?.calls.filter((c) => c.tag === tag) ?? [];
function byPath(calls: readonly ApiCall[]): Record<string, ApiCall[]> {
  const paths: Record<string, ApiCall[]> = {};
  for (const c of calls) paths[c.path] = [...(paths[c.path] ?? []), c];
  return paths;
}

describe.skipIf(!enabled)("the page's and the worker's bundles are the package's browser build", () => {
  it.each(["page", "worker"] as const)(
    "%s: the package's dist/browser only, no sign-in or refresh exchange",
    async (which) => {
      const b = bundles[which];
      expect(b?.packageFiles.length).toBeGreaterThan(0);
      expect(b?.packageFiles.filter((f) => !f.startsWith("dist/browser/"))).toEqual([]);
      for (const swapped of BROWSER_SWAPS) {
        expect(b?.sources.has(swapped), swapped).toBe(false);
        expect(b?.sources.has(browserSibling(swapped)), browserSibling(swapped)).toBe(true);
      }
      // The texts are the server build's (so the check is not vacuous), and not the page's.
      const server = await serverBuildText();
      for (const text of SERVER_ONLY_TEXT) {
        expect(server.includes(text), text).toBe(true);
        expect(b?.text.includes(text), text).toBe(false);
      }
    },
  );
});

async function serverBuildText(): Promise<string> {
  const dir = join(ROOT, "dist/src/chunks");
  const files = (await readdir(dir)).filter((f) => f.endsWith(".js"));
  return (await Promise.all(files.map((f) => readFile(join(dir, f), "utf8")))).join("\n");
}

describe.skipIf(!enabled).each(["page", "worker"] as const)("a session provider in Chromium: %s", (context) => {
  it(
    "20 concurrent first calls ask the provider once, and all send its token",
    async () => {
      const tag = `${context}-first`;
      const result = await run(context, "firstCalls", tag, 20);
      expect(result.context).toBe(scopeOf[context]);
      expect(result.results.map((r) => r.status)).toEqual(Array(20).fill(200));
      expect(result.asked).toBe(1);
      const issued = issuedTo(tag);
      expect(issued).toHaveLength(1);
      const calls = callsOf(tag);
      expect(calls).toHaveLength(20);
      expect(calls.filter((c) => c.status !== 200 || c.serial !== issued[0]?.serial)).toEqual([]);
    },
    SCENARIO_MS,
  );

  it(
    "5 s of calls with tokens living 1.5 s: asked ahead of each expiry, no expired token sent, no call fails or waits",
    async () => {
      const tag = `${context}-short`;
      const result = await run(context, "shortLived", tag, 1_500, 5_000);
      console.log(`${context}: ${result.calls} calls in 5 s, ${result.asked} tokens, ${result.waited} calls waited`);
      expect(result.context).toBe(scopeOf[context]);
      expect(result.failures).toEqual([]);
      const calls = callsOf(tag);
      expect(calls.filter((c) => c.status !== 200 || c.expired)).toEqual([]);
      expect(calls).toHaveLength(result.calls); // none replayed
      const issued = issuedTo(tag);
      expect(issued).toHaveLength(result.asked);
      // Several expiries were crossed by the calls…
      const lastCall = calls.at(-1)?.at ?? 0;
      expect(issued.filter((i) => i.expiresAt < lastCall).length).toBeGreaterThanOrEqual(3);
      // …each token asked for before the one it replaces expired (in the background: no call waited
      // for a token while the held one was valid)…
      for (let k = 1; k < issued.length; k++)
        expect(issued[k]?.at ?? Number.POSITIVE_INFINITY).toBeLessThan(issued[k - 1]?.expiresAt ?? 0);
      expect(result.waited).toBe(0);
      // …and not in a loop: about one renewal per half a lifetime (a renewal starts at half the 1.5 s).
      expect(issued.length).toBeLessThanOrEqual(10);
    },
    SCENARIO_MS,
  );

  it(
    "a revoked token (401) is renewed once and each call replayed once, and succeeds",
    async () => {
      const tag = `${context}-revoked`;
      const result = await run(context, "revoked", tag, 5, false);
      expect(result.before.status).toBe(200);
      expect(result.results.map((r) => r.status)).toEqual(Array(5).fill(200));
      expect(result.asked).toBe(2);
      const [first, second] = issuedTo(tag);
      expect(issuedTo(tag)).toHaveLength(2);
      const replayed = [
        { status: 401, serial: first?.serial },
        { status: 200, serial: second?.serial },
      ];
      const paths = byPath(callsOf(tag).filter((c) => c.path !== "/events/revoke-0"));
      expect(Object.keys(paths)).toHaveLength(5);
      for (const calls of Object.values(paths)) {
        const seen = calls.map(({ status, serial }) => ({ status, serial }));
        expect([replayed, replayed.slice(1)]).toContainEqual(seen);
      }
      expect(Object.values(paths).filter((calls) => calls.length === 2).length).toBeGreaterThan(0);
    },
    SCENARIO_MS,
  );

  it(
    "a backend whose every token is revoked: one renewal, one replay, then the 401 is the answer",
    async () => {
      const tag = `${context}-revoked-all`;
      const result = await run(context, "revoked", tag, 1, true);
      expect(result.results[0]?.status === 401 || result.results[0]?.error?.name === "AuthenticationError").toBe(true);
      expect(result.asked).toBe(2);
      const calls = callsOf(tag).filter((c) => c.path === "/events/revoke-1");
      expect(calls.map((c) => c.status)).toEqual([401, 401]);
      expect(calls.map((c) => c.serial)).toEqual(issuedTo(tag).map((i) => i.serial));
    },
    SCENARIO_MS,
  );

  it(
    "a rejecting provider fails the calls with a SessionError naming it, its error as cause, asked at most once a second and only by calls",
    async () => {
      const tag = `${context}-rejecting`;
      const result = await run(context, "rejecting", tag, 5);
      const named = { name: "SessionError", sessionError: true, causeIsProviders: true };
      for (const r of result.burst) {
        expect(r.status).toBe(0);
        expect(r.error).toMatchObject(named);
        expect(r.error?.message).toMatch(/session provider/);
      }
      expect(result.askedAfterBurst).toBe(1);
      // A call within the second: refused without asking, the provider's error still its cause.
      expect(result.soon.error).toMatchObject(named);
      expect(result.askedSoon).toBe(1);
      // No call for 1.2 s: nothing asks it.
      expect(result.askedIdle).toBe(1);
      // Calls every 50 ms for 2.2 s: they all fail typed, and the provider is asked at most once a second.
      expect(result.later.filter((r) => r.error?.name !== "SessionError")).toEqual([]);
      expect(result.asked).toBeGreaterThanOrEqual(2);
      expect(result.asked).toBeLessThanOrEqual(4);
      for (const gap of result.gaps) expect(gap).toBeGreaterThanOrEqual(999);
      expect(site?.refusedAsks.filter((a) => a.tag === tag)).toHaveLength(result.asked);
      expect(callsOf(tag)).toEqual([]); // no call reached the API without a token
    },
    SCENARIO_MS,
  );

  it(
    "a write that breaks the request schemas is refused as the server build refuses it, naming the same fields, and nothing is sent",
    async () => {
      const tag = `${context}-refused`;
      const bodies = [
        { goal: "NOT_A_GOAL", total_budget: 0, start_date: "2027-02-30", tc_run_id: 1.5 },
        { total_budget: "100", creatives: {}, targeting: [null], integration_details: "x" },
        ["not", "an", "object"],
        { end_date: "", tc_run_id: -0.5, goal: null },
      ];
      // The server build (src/, zod/mini) on the same bodies.
      const server = createAudienceClient({
        baseUrl: "http://127.0.0.1:9/api/v3",
        partnerId: "p",
        session: { accessToken: "t" },
      });
      const expected: unknown[] = [];
      for (const body of bodies) {
        const refusal = await server
          .POST("/setup_processes/{eid}", { params: { path: { eid: "evt-refused" } }, body: body as never })
          .then(
            () => "sent",
            (error: unknown) => error,
          );
        expect(refusal).toBeInstanceOf(ValidationError);
        expected.push((refusal as ValidationError).issues.map((i) => `${i.field}: ${i.message}`));
      }
      const result = await run(context, "refused", tag, bodies);
      expect(result.context).toBe(scopeOf[context]);
      expect(result.seen).toEqual(expected);
      expect(callsOf(tag)).toEqual([]);
    },
    SCENARIO_MS,
  );
  it(
    "a read whose init the browser cannot send is refused at once, naming the field, and never retried; header pairs are sent as pairs; the client works after",
    async () => {
      const tag = `${context}-inits`;
      const inits = [
        { priority: "urgent" }, // the client's check (Chromium's fetch would throw a TypeError)
        { cache: "sometimes" }, // the browser's own checks, told apart from a network failure
        { mode: "navigate" },
        { mode: "no-cors" }, // Chromium would send it without Authorization and hide the answer
        { credentials: "always" },
        { body: "x" },
        { headers: { "bad name": "v" } }, // Chromium's Headers throws a TypeError quoting the name
        { headers: [["x-trace"]] },
        {
          headers: [
            ["x-trace", "t1"],
            ["X-Trace", "t2"],
          ],
        }, // pairs, sent as the two headers they are
      ];
      const result = await run(context, "badInits", tag, inits);
      expect(result.context).toBe(scopeOf[context]);
      expect(result.seen).toEqual([
        ["priority"],
        ["init"],
        ["init"],
        ["mode"],
        ["init"],
        ["body"],
        ["headers"],
        ["headers.0"],
        "sent",
      ]);
      expect(result.after).toBe(200);
      // the pairs and the good read; no refused one reached the API
      expect(callsOf(tag).map((c) => c.trace)).toEqual(["t1, t2", ""]);
    },
    SCENARIO_MS,
  );
});
