/**
 * The dedicated worker of test/browser/session-provider.test.ts: runs the scenario a message
 * names and posts back its result (or why it failed).
 */
import * as scenarios from "./scenarios.ts";

type Scope = {
  addEventListener(type: "message", listener: (event: MessageEvent<Ask>) => void): void;
  postMessage(message: unknown): void;
};
type Ask = { id: number; name: string; args: unknown[] };
type Scenario = (...args: unknown[]) => Promise<unknown>;

const scope = globalThis as unknown as Scope;
scope.addEventListener("message", async ({ data: { id, name, args } }) => {
  try {
    const run = (scenarios as unknown as Record<string, Scenario>)[name];
    if (!run) throw new Error(`no scenario ${name}`);
    scope.postMessage({ id, result: await run(...args) });
  } catch (error) {
    scope.postMessage({ id, error: String(error) });
  }
});
