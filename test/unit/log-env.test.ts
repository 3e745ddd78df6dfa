/**
 * The debug switch: `AUDIENCE_LOG=debug` (or `info`, `warn`) prints the client's log lines to
 * stderr, redacted as the `logger` option's are; nothing is printed without it, or when the
 * `logger` option is given. Through a child process, as a partner's job would run.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json } from "../support/recording-server.ts";
import { echoForms, findSecret } from "../support/secret-forms.ts";

const password = "pw-log-env-Zq8/+é";
const childScript = fileURLToPath(new URL("../support/log-env-child.ts", import.meta.url));
let api: FakeApi;
let flaky = 0;

beforeAll(async () => {
  api = await startFakeApi();
  api.route((req, res) => {
    // The server echoes the secrets it received into what it answers: the worst case.
    const echo = { auth: req.headers.authorization, ...echoForms(password) };
    if (req.path.endsWith("/flaky") && flaky++ % 2 === 0)
      return json(res, 503, echo, { "x-request-id": String(req.headers.authorization) });
    if (req.path.endsWith("/broken")) return void res.socket?.destroy(); // a network failure: "request failed"
    // …and the token it was sent as the request id, which the "request end" line quotes
    return json(res, 200, { id: "flaky" }, { "x-request-id": String(req.headers.authorization) });
  });
});
afterAll(() => api?.close());

function run(level: string | undefined, mode = ""): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const { AUDIENCE_LOG: _unset, ...env } = process.env;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", childScript, api.url, password, mode], {
      env: level === undefined ? env : { ...env, AUDIENCE_LOG: level },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

function expectNoSecret(text: string): void {
  for (const secret of [password, ...api.issued])
    expect(findSecret(text, secret), "a secret reached stderr").toBeUndefined();
}

describe("AUDIENCE_LOG", () => {
  it("debug: every line of the client on stderr, redacted; nothing on stdout", async () => {
    const { code, stderr, stdout } = await run("debug");
    expect(code).toBe(0);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/debug.*request start/);
    expect(stderr).toMatch(/info.*retrying/);
    expect(stderr).toMatch(/warn.*request failed/);
    expect(stderr).toContain("[REDACTED]");
    expectNoSecret(stderr);
  }, 60_000);

  it("info and warn: that level and above only", async () => {
    const info = await run("info");
    expect(info.stderr).toMatch(/info.*retrying/);
    expect(info.stderr).not.toMatch(/request start/);
    const warn = await run("WARN");
    expect(warn.stderr).toMatch(/warn.*request failed/);
    expect(warn.stderr).not.toMatch(/retrying|request start/);
    expectNoSecret(info.stderr + warn.stderr);
  }, 60_000);

  it("unset, or another value: nothing printed", async () => {
    expect((await run(undefined)).stderr).toBe("");
    expect((await run("verbose")).stderr).toBe("");
  }, 60_000);

  it("an explicit logger option wins over the variable", async () => {
    expect((await run("debug", "explicit-logger")).stderr).toBe("");
  }, 60_000);
});
