/**
 * The bin's command line, as a person types it (docs/MCP.md): `--help` (and `-h`) prints the usage
 * on stdout and exits 0, without the environment; a flag it does not know, a value given to a flag
 * that takes none, or a missing variable exits 2 with the problem and the usage on stderr, and
 * stdout stays empty (an MCP client reads the protocol there). No password reaches either stream.
 */
import { spawnSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const PASSWORD = "pw-bin-cli-secret";
const FULL_ENV = { AI_BASE_URL: "http://127.0.0.1:9/api/v3", AI_USERNAME: "agent@example.test", AI_PASSWORD: PASSWORD };

function run(args: string[], env: Record<string, string> = FULL_ENV) {
  const out = spawnSync(process.execPath, ["--import", "tsx", "src/mcp/bin.ts", ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", ...env },
    input: "",
    encoding: "utf8",
    timeout: 30_000,
  });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}

describe("audience-intelligence-mcp on the command line", () => {
  it.each([["--help"], ["-h"]])("%s prints the usage on stdout and exits 0, with no environment", (flag) => {
    const { status, stdout, stderr } = run([flag], {});
    expect(status).toBe(0);
    expect(stdout).toMatch(/^usage: audience-intelligence-mcp \[--allow-writes\] \[--allow-publish\]/);
    expect(stdout).toContain("AI_BASE_URL");
    expect(stderr).toBe("");
  });

  it.each([
    ["a flag it does not know", ["--allow-everything"], /Unknown option '--allow-everything'/],
    ["a value given to a flag that takes none", ["--allow-writes=yes"], /--allow-writes/],
    ["a positional argument", ["serve"], /serve/],
  ])("%s: exit 2, the problem and the usage on stderr, nothing on stdout", (_name, args, problem) => {
    const { status, stdout, stderr } = run(args);
    expect(status).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(problem);
    expect(stderr).toContain("usage: audience-intelligence-mcp");
    expect(stderr).not.toContain(PASSWORD);
  });

  it("a missing variable: exit 2, naming each one missing, nothing on stdout", () => {
    const { status, stdout, stderr } = run([], { AI_BASE_URL: FULL_ENV.AI_BASE_URL });
    expect(status).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain("AI_USERNAME, AI_PASSWORD must be set in the environment");
  });
});
