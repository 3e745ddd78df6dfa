/**
 * No leaks (issue: tokens and password never reach a message, JSON, cause, support report or log
 * line). Drives every error family with known secrets and scans everything the client produced.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type AudienceError, createAudienceClient, isAudienceError, unwrap } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { freePort } from "../support/free-port.ts";
import { json } from "../support/recording-server.ts";

let api: FakeApi;
afterEach(() => api?.close());

const password = "hunter2-correct~~~???horse-battery"; // differs in base64 and base64url (secret-forms.ts)

function everything(error: unknown): string[] {
  const out: string[] = [];
  let e: unknown = error;
  while (e) {
    out.push(String(e), (e as Error).message ?? "", (e as Error).stack ?? "", JSON.stringify(e) ?? "");
    if (isAudienceError(e)) out.push(e.supportReport());
    e = (e as { cause?: unknown }).cause;
  }
  return out;
}

describe("secrets never leak", () => {
  it("scans errors of every family, their support reports and every log line", async () => {
    api = await startFakeApi();
    const lines: string[] = [];
    const log = (level: string) => (message: string, details?: Record<string, unknown>) =>
      lines.push(`${level} ${message} ${JSON.stringify(details)}`);
    const client = createAudienceClient({
      baseUrl: api.url,
      credentials: { username: "ops@acme.test", password },
      retry: { baseDelayMs: 1, maxDelayMs: 2, rateLimitDelayMs: [1, 2] },
      timeoutMs: 40,
      logger: { debug: log("debug"), info: log("info"), warn: log("warn") },
    });
    const errors: unknown[] = [];
    const capture = async (p: Promise<unknown>) => {
      try {
        await p;
      } catch (e) {
        errors.push(e);
      }
    };
    // The server echoes the secrets it received into its error bodies and headers — the worst case.
    api.route((req, res) => {
      const echo = { auth: req.headers.authorization, body: req.body, url: req.url, code: "error.auth.not_authorized" };
      const status = Number(req.query.get("status") ?? 500);
      if (status === 0) return void setTimeout(() => json(res, 200, {}), 200);
      json(res, status, echo, { "x-request-id": `req-${status}`, "x-echo": String(req.headers.authorization) });
    });
    for (const status of [400, 401, 403, 404, 429, 500, 503]) {
      await capture(client.GET("/events/", { params: { query: { status } as never } }).then(unwrap));
    }
    await capture(client.GET("/events/", { params: { query: { status: 0 } as never } })); // timeout
    await capture(client.GET("/events/{eid}", { params: { path: { eid: ".." } } })); // validation
    await capture(client.POST("/auth", { body: { username: "x", password: "" } })); // validation of sign-in
    const refused = createAudienceClient({
      baseUrl: `http://127.0.0.1:${await freePort()}/api/v3`,
      credentials: { username: "u", password },
      retry: { maxAttempts: 1 },
    });
    await capture(refused.GET("/events/", {})); // network error during sign-in
    api.route((_req, res) => json(res, 401, {}));
    await capture(client.GET("/events/", {}).then(unwrap));

    expect(errors.length).toBeGreaterThanOrEqual(11);
    expect(errors.every((e) => isAudienceError(e))).toBe(true);
    const secrets = [password, ...api.issued];
    const haystack = [...errors.flatMap(everything), ...lines];
    for (const secret of secrets) {
      for (const text of haystack)
        expect(text.includes(secret), `a secret leaked into: ${text.slice(0, 200)}`).toBe(false);
    }
    // and the redaction left a trace where the secret was
    expect(haystack.some((t) => t.includes("[REDACTED]"))).toBe(true);
    expect((errors[0] as AudienceError).supportReport()).toMatch(/request id:\s+req-400/);
  });

  it("logs request start, end and each retry with attempt number and wait", async () => {
    api = await startFakeApi();
    let n = 0;
    api.route((_req, res) => json(res, ++n < 3 ? 503 : 200, {}));
    const lines: Array<[string, Record<string, unknown> | undefined]> = [];
    const client = createAudienceClient({
      baseUrl: api.url,
      credentials: { username: "u", password },
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
      logger: { debug: (m, d) => lines.push([m, d]), info: (m, d) => lines.push([m, d]) },
    });
    await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    const retries = lines.filter(([m]) => m === "retrying").map(([, d]) => d);
    expect(retries).toEqual([
      expect.objectContaining({
        method: "GET",
        path: "/events/{eid}",
        attempt: 1,
        nextAttempt: 2,
        waitMs: expect.any(Number),
        reason: "HTTP 503",
      }),
      expect.objectContaining({ attempt: 2, nextAttempt: 3 }),
    ]);
    expect(lines.filter(([m, d]) => m === "request end" && d?.path === "/events/{eid}")).toEqual([
      ["request end", expect.objectContaining({ status: 200, attempts: 3 })],
    ]);
  });
});

describe("the client object itself", () => {
  it("exposes no credential or token through config or JSON", () => {
    const client = createAudienceClient({
      baseUrl: "https://api.example.test/api/v3",
      credentials: { username: "u", password },
      session: { accessToken: "access-token-value-1", refreshToken: "refresh-token-value-1" },
    });
    const text = JSON.stringify(client) + JSON.stringify(client.config) + String(client.config);
    for (const secret of [password, "access-token-value-1", "refresh-token-value-1"])
      expect(text).not.toContain(secret);
  });
});
