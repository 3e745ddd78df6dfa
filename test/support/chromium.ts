/**
 * Debian's Chromium (`/usr/bin/chromium`, or CHROMIUM_PATH) driven by playwright-core, which
 * `.ci/run` installs outside the project (RUNTIMES_DIR, as for the runtime matrix): the browser
 * tests of test/react-query/ and test/browser/ share it. Only the few methods they use are typed.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export type Page = {
  goto(url: string): Promise<unknown>;
  evaluate<T>(fn: string): Promise<T>;
  focus(selector: string): Promise<void>;
  click(selector: string): Promise<void>;
  fill(selector: string, value: string): Promise<void>;
  keyboard: { type(text: string, options: { delay: number }): Promise<void>; press(key: string): Promise<void> };
  waitForTimeout(ms: number): Promise<void>;
  on(event: "console" | "pageerror", listener: (message: unknown) => void): void;
};
export type Browser = { close(): Promise<void>; newPage(): Promise<Page> };

/** Chromium start is slow on a loaded CI machine: hooks that launch it get this long. */
export const CHROMIUM_START_MS = 120_000;

/** Launches Chromium with the playwright-core of `runtimesDir` (RUNTIMES_DIR); fails without it. */
export async function launchChromium(runtimesDir: string): Promise<Browser> {
  if (!runtimesDir)
    throw new Error("RUNTIMES_DIR must hold playwright-core (node_modules/playwright-core), as .ci/run installs it");
  const { chromium } = (await import(
    pathToFileURL(join(runtimesDir, "node_modules", "playwright-core", "index.mjs")).href
  )) as {
    chromium: { launch(options: Record<string, unknown>): Promise<Browser> };
  };
  const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  return chromium.launch({ executablePath, args: ["--no-sandbox"] });
}

/** A page whose console and uncaught errors are kept in `logs` (for a failing test's message). */
export async function openPage(browser: Browser, url: string, logs: string[]): Promise<Page> {
  const page = await browser.newPage();
  page.on("console", (m) => logs.push(String((m as { text(): string }).text())));
  page.on("pageerror", (e) => logs.push(String(e)));
  await page.goto(url);
  return page;
}
