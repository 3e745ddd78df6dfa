/**
 * docs/RELIABILITY.md, "Hostile data, caller patterns, terminal text": text for humans is safe for a terminal. A real local server
 * answers with hostile strings (C1 controls in x-request-id and content-type, ESC/OSC/bidi in
 * bodies); the support report, error messages, log lines and the demo's output must carry no
 * character that drives a terminal or reorders text — only its visible `\uXXXX` escape.
 */
import { spawn } from "node:child_process";
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { table } from "../../scripts/demo-print.ts";
import {
  ApiError,
  createAudienceClient,
  isAudienceError,
  NetworkError,
  PartnerSelectionError,
  unwrap,
} from "../../src/index.ts";
import { terminalSafe } from "../../src/internal/terminal-text.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json, type RecordingServer, startRecordingServer } from "../support/recording-server.ts";

/** Everything that must not reach a terminal raw (newline aside, checked per line). */
const unsafe = (code: number): boolean =>
  (code < 0x20 && code !== 0x0a) ||
  (code >= 0x7f && code <= 0x9f) ||
  code === 0x2028 ||
  code === 0x2029 ||
  (code >= 0x202a && code <= 0x202e) ||
  (code >= 0x2066 && code <= 0x2069);
const unsafeIn = (text: string): string[] => [...text].filter((c) => unsafe(c.codePointAt(0) as number));

// C1 bytes are what a header can carry (Node writes header values as latin1): CSI 2J clears the
// screen, OSC 52 writes the clipboard, both without an ESC.
const C1_REQUEST_ID = "req-\u009b2J\u009d52;c;aGk=\u009c";
const OSC52 = "\u001b]52;c;ZWNobyBwd25lZA==\u0007";
const CLEAR = "\u001b[2J\u001b[H";
const BIDI = "\u202eevil\u202c";

let server: RecordingServer | FakeApi | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("terminalSafe", () => {
  it("escapes C0, DEL, C1, line separators and bidi controls, and nothing else", () => {
    expect(terminalSafe("a\u0000b\tc\nd\u001be\u007ff\u0085g\u009fh\u2028i\u202ej\u2066k\u2069")).toBe(
      "a\\u0000b\\u0009c\\u000ad\\u001be\\u007ff\\u0085g\\u009fh\\u2028i\\u202ej\\u2066k\\u2069",
    );
    const plain = "Café — 85 % ✓ 東京 \u00a0 \u200d 😀 C:\\path";
    expect(terminalSafe(plain)).toBe(plain);
    for (let code = 0; code <= 0xffff; code++) {
      const c = String.fromCharCode(code);
      expect(unsafeIn(terminalSafe(c)).length, `U+${code.toString(16)}`).toBe(0);
    }
  });
});

describe("text for humans against a hostile server", () => {
  const session = { accessToken: "access-token-for-hostile-text" };
  const logged: Array<{ level: string; message: string; details: unknown }> = [];
  const logger = Object.fromEntries(
    ["debug", "info", "warn"].map((level) => [
      level,
      (message: string, details?: unknown) => logged.push({ level, message, details }),
    ]),
  );
  afterEach(() => {
    logged.length = 0;
  });
  const expectSafeLogs = (): void => {
    expect(logged.length).toBeGreaterThan(0);
    for (const { message, details } of logged) {
      expect(unsafeIn(message)).toEqual([]);
      for (const [k, v] of Object.entries((details ?? {}) as Record<string, unknown>)) {
        expect(unsafeIn(k)).toEqual([]);
        if (typeof v === "string") expect(unsafeIn(v), `${message} ${k}`).toEqual([]);
      }
    }
  };
  const expectSafeReport = (error: unknown): void => {
    expect(isAudienceError(error)).toBe(true);
    const e = error as ApiError;
    for (const line of e.supportReport().split("\n")) expect(unsafeIn(line)).toEqual([]);
    expect(unsafeIn(e.message)).toEqual([]);
    expect(unsafeIn(JSON.stringify(e.toJSON().message))).toEqual([]);
  };

  it("a C1 request id reaches neither the message, the support report nor a log line raw", async () => {
    server = await startRecordingServer((_req, res) =>
      json(res, 404, { message: "error.not_found" }, { "x-request-id": C1_REQUEST_ID }),
    );
    const client = createAudienceClient({ baseUrl: server.url, session, partnerId: "partner-id-acme", logger });
    const error = await client
      .GET("/events/{eid}", { params: { path: { eid: "evt-1" } } })
      .then(unwrap)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expectSafeReport(error);
    // (Node writes the header as UTF-8, undici reads it as latin1: each C1 arrives after an "Â".)
    expect((error as ApiError).supportReport()).toContain("\\u009b2J");
    expect((error as ApiError).requestId).toMatch(/^req-.*\\u009b2J.*\\u009d52;c;aGk=.*\\u009c$/);
    expectSafeLogs();
  });

  it("every line of the support report is escaped, the request's own headers included", async () => {
    server = await startRecordingServer((_req, res) => json(res, 500, {}, { "x-request-id": "req-500" }));
    const client = createAudienceClient({
      baseUrl: server.url,
      session,
      partnerId: "partner-id-acme",
      retry: { maxAttempts: 1 },
    });
    const error = await client
      .GET("/events/", { headers: { "x-note": "a\u009b2Jb" } })
      .then(unwrap)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expectSafeReport(error);
    expect((error as ApiError).supportReport()).toContain("x-note: a\\u009b2Jb");
  });

  it("a C1 content type on a 2xx: the NetworkError message, its report and the retry log lines are escaped", async () => {
    server = await startRecordingServer((_req, res: ServerResponse) => {
      res.writeHead(200, { "content-type": "text/html\u009b2J", "x-request-id": C1_REQUEST_ID });
      res.end("<html>");
    });
    const client = createAudienceClient({
      baseUrl: server.url,
      session,
      partnerId: "partner-id-acme",
      logger,
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
    });
    const error = await client.GET("/events/", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toContain("text/html\\u009b2J");
    expectSafeReport(error);
    expect(logged.some((l) => l.message === "retrying")).toBe(true);
    expectSafeLogs();
  });

  it("partner ids with ESC and bidi controls from the IdToken are escaped in the PartnerSelectionError", async () => {
    server = await startFakeApi({ groups: [`AB1${CLEAR}`, `AB2${BIDI}`] });
    const client = createAudienceClient({
      baseUrl: server.url,
      credentials: { username: "u@acme.test", password: "pw-hostile" },
      partnerIdPatterns: [/^AB/],
    });
    const error = await client.GET("/events/", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartnerSelectionError);
    expectSafeReport(error);
    expect((error as Error).message).toContain("AB1\\u001b[2J\\u001b[H");
  });

  it("the demo's table escapes keys and cells, and bounds rows, columns and cell width", () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({
      [`k${i}${OSC52}`]: `${CLEAR}${BIDI}${"x".repeat(500)}`,
      name: OSC52,
    }));
    const printed = table(rows);
    for (const line of printed.split("\n")) expect(unsafeIn(line)).toEqual([]);
    expect(printed).toContain("\\u001b]52;c;ZWNobyBwd25lZA==\\u0007");
    expect(printed.split("\n").length).toBeLessThan(30);
    expect(Math.max(...printed.split("\n").map((l) => l.length))).toBeLessThan(1_000);
  });

  it("the demo, run as a child process against a hostile server, prints no control or bidi character", async () => {
    const api = await startFakeApi({ groups: ["partner-id-acme"] });
    server = api;
    const hostile = { "x-request-id": C1_REQUEST_ID };
    const drafts = new Map<string, unknown>();
    api.route((req, res) => {
      const p = decodeURIComponent(req.path);
      if (p === "/events/")
        return json(res, 200, { items: [{ id: "evt-\u009b1", name: OSC52, frontend_status: CLEAR }] }, hostile);
      if (p.endsWith("/lookout_prediction_benchmark"))
        return json(res, 200, { values: [85, "90%"], [`note${BIDI}`]: OSC52 }, hostile);
      if (p.endsWith("/suggested_tcs")) return json(res, 200, [{ [`tc${CLEAR}`]: OSC52, budget: BIDI }], hostile);
      if (p.endsWith("/boost")) return json(res, 201, { task_id: `task${OSC52}` }, hostile);
      if (p.startsWith("/setup_processes/")) {
        if (req.method !== "GET") drafts.set(p, JSON.parse(req.body));
        return drafts.has(p) ? json(res, 200, drafts.get(p), hostile) : json(res, 404, {}, hostile);
      }
      if (p.startsWith("/integrations/connect/")) return json(res, 200, { status: `ok${CLEAR}` }, hostile);
      if (p.endsWith("/campaign_results")) return json(res, 200, [{ [`k${OSC52}`]: BIDI }], hostile);
      if (p === "/messages/totalunread") return json(res, 200, { total_unread: 2 }, hostile);
      return json(res, 404, { message: OSC52 }, hostile);
    });
    const { code, stdout, stderr } = await runDemo(api.url);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain("Campaign results");
    for (const line of stdout.split("\n")) expect(unsafeIn(line), line).toEqual([]);
    expect(stdout).toContain("\\u001b]52;c;ZWNobyBwd25lZA==\\u0007");
  }, 30_000);
});

function runDemo(baseUrl: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/demo.ts", "--base-url", baseUrl], {
      env: { ...process.env, AI_USERNAME: "demo@acme.test", AI_PASSWORD: "demo-password", AI_AD_PLATFORM: "meta" },
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
