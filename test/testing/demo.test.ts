/**
 * `npm run demo`: `--help` prints the usage, a wrong option or scenario is refused in one line (no
 * stack trace), and `--scenario <name>` runs the quick start against the embedded mock playing that
 * scenario, printing what the client does as it happens: its retries and waits, and the
 * partner's pace when it changes.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const demo = (...args: string[]) => {
  const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/demo.ts", ...args], {
    encoding: "utf8",
    timeout: 150_000,
    env: { ...process.env, NO_COLOR: "1" },
  });
  return { code: run.status, out: run.stdout, err: run.stderr };
};

describe("npm run demo", () => {
  it("--help prints the usage and exits 0", () => {
    const { code, out, err } = demo("--help");
    expect(code).toBe(0);
    expect(out).toMatch(/^Usage: npm run demo -- \[options\]/);
    expect(out).toMatch(/--scenario <name>.*\n(.*\n)*.*server-errors/);
    expect(out).toMatch(/--base-url <url>/);
    expect(err).toBe("");
  });
  it.each([
    [["--bogus"], /Unknown option '--bogus'/],
    [["--scenario", "chaos"], /Unknown scenario "chaos": one of healthy, rate-limit-storm/],
    [["--scenario", "constructor"], /Unknown scenario "constructor"/],
    [["--seed", "x", "--scenario", "server-errors"], /--seed must be a whole number/],
  ])("%o is refused in one line with the usage hint, exit 2", (args, message) => {
    const { code, err } = demo(...args);
    expect(code).toBe(2);
    expect(err).toMatch(message);
    expect(err).toMatch(/npm run demo -- --help/);
    expect(err).not.toMatch(/\n\s+at /); // no stack trace
  });
  it("--scenario server-errors shows the retries, waits and pace as they happen; a write it cannot repeat safely ends it in one line", () => {
    const { code, out, err } = demo("--scenario", "server-errors", "--seed", "3");
    expect(out).toMatch(/scenario server-errors \(seed 3\)/);
    expect(out).toMatch(/↻ retry GET \/\S+ after HTTP 50[0234]: attempt 2 in \d+ ms/);
    expect(out).toMatch(/✓ GET \/\S+: HTTP 200 after [234] attempts/);
    expect(out).toMatch(/⏱ pace: at most 8 calls at once/);
    // Every read completes (bursts of at most three); a 5xx on the publish, a write the client does
    // not repeat blindly (Section 3 rule 3), ends the run with the client's own message.
    if (code === 0) expect(out).toMatch(/Done: 1 sign-in/);
    else
      expect(err).toMatch(/^\ndemo failed: POST \/setup_processes\/\{eid\}\/boost: HTTP 50[0234] .*Section 3 rule 3/);
    expect(err).not.toMatch(/\n\s+at /);
  }, 160_000);
  it("--scenario healthy completes", () => {
    const { code, out } = demo("--scenario", "healthy");
    expect(out).toMatch(/Done: 1 sign-in/);
    expect(code).toBe(0);
  }, 160_000);
});
