/**
 * The binding proven in a real browser: the React app of app/ (bundled by esbuild, platform
 * browser) in Debian's Chromium, driven by playwright-core, against the mock of
 * `@audience-intelligence/client/testing` (startMockApi: Prism), behind site.ts, which serves the
 * page and records every request on its way to Prism.
 *
 * Needs Chromium and playwright-core, which `.ci/run` installs outside the project (RUNTIMES_DIR,
 * as for the runtime matrix): not part of `npm test`; `RUNTIMES_DIR=… npm run test:react-query`.
 */
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SPEC } from "../../src/index.ts";
import { STALE_READS } from "../../src/react-query/index.ts";
import { type MockApi, startMockApi } from "../../src/testing/index.ts";
import { type Browser, CHROMIUM_START_MS, launchChromium, openPage, type Page } from "../support/chromium.ts";
import { FIRST_LOAD_PARTNER, SHAPES } from "./app/constants.ts";
import { type Seen, type Site, startSite } from "./site.ts";

const here = fileURLToPath(new URL(".", import.meta.url));
const ROOT = resolve(here, "..", "..");
const dir = process.env.RUNTIMES_DIR ?? "";
// Asked for without RUNTIMES_DIR, it fails rather than skip: CI must never pass it silently.
const enabled = process.env.REACT_QUERY_BROWSER === "1";
let mock: MockApi | undefined;
let site: Site | undefined;
let browser: Browser | undefined;
let page: Page;
const logs: string[] = [];

async function bundle(): Promise<string> {
  const src = (file: string) => join(ROOT, "src", file);
  const result = await build({
    entryPoints: [join(here, "app", "main.ts")],
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    write: false,
    logLevel: "silent",
    define: { "process.env.NODE_ENV": '"production"' },
    alias: {
      "@audience-intelligence/client/react-query": src("react-query/index.ts"),
      "@audience-intelligence/client": src("index.ts"),
    },
  });
  return result.outputFiles[0]?.text ?? "";
}

beforeAll(async () => {
  if (!enabled) return;
  const [app, api] = await Promise.all([bundle(), startMockApi({ stateful: false })]);
  mock = api;
  const html =
    '<!doctype html><meta charset="utf-8"><title>react-query</title><script type="module" src="/app.js"></script>';
  site = await startSite(api.baseUrl, { "/": html, "/app.js": app });
  browser = await launchChromium(dir);
  page = await openPage(browser, `${site.url}/`, logs);
  await page.evaluate(
    "new Promise((r) => { const t = () => (globalThis.scenarios ? r(true) : setTimeout(t, 10)); t(); })",
  );
}, CHROMIUM_START_MS);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await mock?.close();
});

/** Runs a scenario of the app; the site's record from then on. */
async function run<T>(name: string): Promise<{ result: T; seen: Seen[] }> {
  const from = site?.seen.length ?? 0;
  try {
    const result = await page.evaluate<T>(`globalThis.scenarios.${name}()`);
    return { result, seen: site?.seen.slice(from) ?? [] };
  } catch (error) {
    throw new Error(`${name}: ${String(error)}\npage log:\n${logs.join("\n")}`);
  }
}

const pathOf = (s: Seen) => s.url.split("?")[0];

describe.skipIf(!enabled)("the React Query binding in Chromium, against startMockApi", () => {
  it("two partners' forecasts never cross in the cache, nor on screen when switching partner", async () => {
    const { result, seen } = await run<{
      a: string;
      b: string;
      log: string[];
      keys: { key: unknown[]; partner: string }[];
    }>("partners");
    expect([result.a, result.b]).toEqual(["partner-a", "partner-b"]);
    let partner = "";
    for (const entry of result.log) {
      if (entry.startsWith("switch:")) partner = `partner-${entry.slice("switch:".length)}`;
      else expect(["pending", partner]).toContain(entry);
    }
    const tenantOf = (k: unknown[]) => (k[0] as { partner: string; environment: string }).partner;
    expect(result.keys.map((k) => `${tenantOf(k.key)} ${k.partner}`).sort()).toEqual([
      "partner-a partner-a",
      "partner-b partner-b",
    ]);
    expect(new Set(seen.map((s) => s.partner))).toEqual(new Set(["partner-a", "partner-b"]));
  });

  it("a publish refreshes exactly the reads of the map, for its event and partner", async () => {
    const { result, seen } = await run<{ publishedAt: number; invalidated: unknown[][] }>("publish");
    const after = seen.filter((s) => s.at >= result.publishedAt && s.method === "GET");
    const mapped = STALE_READS["post /setup_processes/{eid}/boost"] ?? [];
    const expected = mapped.map((p) => p.replace("{eid}", "evt-1001"));
    // Every read of the map is on screen (app/publish.ts), so every one is refetched, and nothing else.
    expect(after.map(pathOf).sort()).toEqual([...expected].sort());
    expect(after.every((s) => s.partner === "partner-a")).toBe(true);
    expect(seen.filter((s) => s.method === "POST").map(pathOf)).toEqual(["/setup_processes/evt-1001/boost"]);
    const refreshed = result.invalidated.map((k) => JSON.stringify([k[0], k[2], k[3]]));
    const tenant = { partner: "partner-a", environment: `${site?.url}/api/v3` };
    const listed = mapped.map((p) => JSON.stringify([tenant, p, { path: { eid: "evt-1001" } }]));
    expect(refreshed.sort()).toEqual(listed.sort());
  });

  it(`no logical call makes more than ${SPEC.maxAttempts} attempts; RateLimitError and ServerError reach the component typed`, async () => {
    const { result, seen } = await run<{ server: string; rate: string }>("attempts");
    expect(result.server).toBe("ServerError|ServerError");
    expect(result.rate).toBe("RateLimitError|RateLimitError");
    expect(seen.filter((s) => s.url === "/events/evt-503")).toHaveLength(SPEC.maxAttempts);
    // A Retry-After beyond maxRetryAfterMs fails at once; TanStack adds no attempt.
    expect(seen.filter((s) => s.url === "/events/evt-429")).toHaveLength(1);
  });

  it("a paged list is an infinite query at the page cap, ended by the short page", async () => {
    const { result, seen } = await run<{ shown: string }>("pages");
    const lists = seen.filter((s) => pathOf(s) === "/events/");
    expect(lists).toHaveLength(1);
    const query = new URLSearchParams(lists[0]?.url.split("?")[1]);
    expect([query.get("page"), query.get("limit"), query.get("descending")]).toEqual(["1", "100", "true"]);
    expect(result.shown).toMatch(/^[1-9]\d*\|false$/);
  });

  it("useSuspenseQuery suspends until the event is there", async () => {
    const { result, seen } = await run<{ shown: string }>("suspense");
    expect(result.shown).toBe("Summer Open Air"); // Prism's example of GET /events/{eid}
    expect(seen.filter((s) => s.url === "/events/evt-1001")).toHaveLength(1);
  });

  it("a 5 s typing burst in the wizard sends at most one PUT a second and stores the last keystroke", async () => {
    await page.evaluate("globalThis.wizard.start()");
    const from = site?.seen.length ?? 0;
    await page.focus("#campaign-name");
    // About 5 s of typing: bursts of keystrokes 60 ms apart, with two pauses longer than the debounce.
    const typed = ["Summer Open Air ", "Festival 2027 ", "presale weekend"];
    const began = Date.now();
    for (const [i, part] of typed.entries()) {
      await page.keyboard.type(part, { delay: 60 });
      if (i < typed.length - 1) await page.waitForTimeout(1_300);
    }
    const typingMs = Date.now() - began;
    const result = await page.evaluate<{
      stored: string;
      published: number;
      afterPublish: Record<string, unknown>;
      states: string[];
    }>("globalThis.wizard.finish()");
    const puts = (site?.seen.slice(from) ?? []).filter((s) => s.method === "PUT");
    const gaps = puts.slice(1).map((p, i) => p.at - (puts[i]?.at ?? 0));
    console.log(`typing ${typingMs} ms: ${puts.length} PUTs, ${gaps.join(", ") || "no"} ms apart`);
    expect(typingMs).toBeGreaterThan(4_500);
    expect(puts.length).toBeGreaterThanOrEqual(1);
    for (let i = 1; i < puts.length; i++)
      expect((puts[i]?.at ?? 0) - (puts[i - 1]?.at ?? 0)).toBeGreaterThanOrEqual(950);
    expect(puts.length).toBeLessThanOrEqual(Math.ceil(typingMs / 1_000) + 1);
    const last = JSON.parse(puts.at(-1)?.body ?? "{}") as { campaign_name?: string };
    expect(last.campaign_name).toBe(typed.join(""));
    expect(result.stored).toBe(typed.join(""));
    expect(result.states).toEqual(expect.arrayContaining(["saving", "saved", "published"]));
    expect(result.afterPublish).toEqual({ state: "published", error: "SetupStateError", typed: true });
    // The edit after publish was refused before sending.
    expect(puts.filter((s) => s.body.includes("after publish"))).toEqual([]);
  }, 30_000);

  it("a first load whose partner comes from the IdToken sends each read once, with no loading flash", async () => {
    const { result, seen } = await run<{ log: string[]; shown: string[] }>("firstLoad");
    const counts = new Map<string, number>();
    for (const s of seen) counts.set(s.url, (counts.get(s.url) ?? 0) + 1);
    expect(Object.fromEntries(counts)).toEqual({
      "/events/evt-1001": 1,
      "/events/evt-1001/lookout_prediction?type=capacity": 1,
      "/events/evt-1001/campaigns": 1,
      "/events/?page=1&limit=100": 1,
      "/setup_processes/evt-1001": 1,
    });
    expect(seen.every((s) => s.partner === FIRST_LOAD_PARTNER)).toBe(true);
    // Once a component has shown its data it never shows a loading state again.
    for (const id of result.shown) {
      const states = result.log.filter((l) => l.startsWith(`${id}:`)).map((l) => l.slice(id.length + 1));
      expect(states.slice(states.indexOf("success"))).toEqual(
        states.slice(states.indexOf("success")).map(() => "success"),
      );
    }
  });
});

/** The last PUT of a shape's draft, as the server received it. */
function storedDraft(shape: keyof typeof SHAPES, from: number) {
  const puts = (site?.seen.slice(from) ?? []).filter(
    (s) => s.method === "PUT" && s.url === `/setup_processes/${SHAPES[shape]}`,
  );
  return { puts, last: JSON.parse(puts.at(-1)?.body ?? "{}") as Record<string, unknown> };
}

/** Types `text` into an empty field (the loaded draft may already hold a value). */
async function typeInto(selector: string, text: string): Promise<void> {
  await page.fill(selector, "");
  await page.focus(selector);
  await page.keyboard.type(text, { delay: 30 });
}

describe.skipIf(!enabled)("the wizard's edits, from any step or component, end on the server", () => {
  afterAll(() => page?.evaluate("globalThis.shapes.stop()"));

  it('"Next" pressed within 150 ms of the last keystroke: the name and the next step\'s field are both stored', async () => {
    await page.evaluate("globalThis.shapes.start('next')");
    const from = site?.seen.length ?? 0;
    await typeInto("#next-name", "Spring Gala");
    // "Next" from the keyboard, as a quick user presses it: Tab to the button, Enter.
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await typeInto("#next-budget", "500");
    const saved = await page.evaluate<{ at: number; nextAfterEditMs: number }>("globalThis.shapes.saved('next')");
    expect(saved.nextAfterEditMs).toBeLessThan(150);
    const { puts, last } = storedDraft("next", from);
    expect(last).toMatchObject({ campaign_name: "Spring Gala", total_budget: 500 });
    expect(puts.every((p) => p.at <= saved.at)).toBe(true); // "saved" once the server holds the last edit
  }, 30_000);

  it("a cache that keeps the draft as first loaded (staleTime 60 s): step 2 starts from the saved name", async () => {
    await page.evaluate("globalThis.shapes.start('stale')");
    const from = site?.seen.length ?? 0;
    await typeInto("#stale-name", "Autumn Fair");
    await page.evaluate("globalThis.shapes.saved('stale')");
    await page.click("#stale-next");
    await typeInto("#stale-budget", "750");
    const saved = await page.evaluate<{ at: number; draft: unknown }>("globalThis.shapes.saved('stale')");
    const { puts, last } = storedDraft("stale", from);
    expect(last).toMatchObject({ campaign_name: "Autumn Fair", total_budget: 750 });
    expect(saved.draft).toMatchObject({ campaign_name: "Autumn Fair", total_budget: 750 });
    expect(puts.every((p) => p.at <= saved.at)).toBe(true);
  }, 30_000);

  it("two components of one draft on screen: each edit starts from the other's", async () => {
    await page.evaluate("globalThis.shapes.start('both')");
    const from = site?.seen.length ?? 0;
    await typeInto("#both-name", "Winter Market");
    await typeInto("#both-budget", "900");
    const saved = await page.evaluate<{ at: number; draft: unknown }>("globalThis.shapes.saved('both')");
    const { puts, last } = storedDraft("both", from);
    expect(last).toMatchObject({ campaign_name: "Winter Market", total_budget: 900 });
    expect(saved.draft).toMatchObject({ campaign_name: "Winter Market", total_budget: 900 });
    expect(puts.every((p) => p.at <= saved.at)).toBe(true);
  }, 30_000);
});
