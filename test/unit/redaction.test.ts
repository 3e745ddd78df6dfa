/**
 * Redaction by value covers every form a secret takes in text: a server
 * that echoes the password and the tokens back — JSON-escaped, `\u`-escaped, percent-encoded,
 * HTML-escaped, base64/base64url alone or embedded, `base64(username:password)`, inside
 * `x-request-id` — must not get any of them into an error, `String(error)`, `JSON.stringify(error)`,
 * a cause, a support report, a log line or the raw `{ error }` of a typed call.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createAudienceClient, isAudienceError, unwrap } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { apiRelative, json } from "../support/recording-server.ts";
import { differsInEveryEncoding, EVERY_ENCODING, echoForms, findSecret } from "../support/secret-forms.ts";
import { makeTokens } from "../support/tokens.ts";

let api: FakeApi;
afterEach(() => api?.close());

const username = "ops@acme.test";
/**
 * Passwords with a quote, a backslash, non-ASCII, a space and a slash, and one that differs in
 * base64 and base64url at every alignment (EVERY_ENCODING); one of 3 characters.
 */
const passwords = [`Tr0ub"4dor\\&3-é/x y${EVERY_ENCODING}`, 'é"\\', "p\\q"];

describe("the test secrets differ in every encoding", () => {
  it("base64 and base64url of each differ at every alignment, so dropping either form fails a test", () => {
    const tokens = makeTokens();
    for (const secret of [passwords[0] as string, `${username}:${passwords[0]}`, ...Object.values(tokens)])
      expect(differsInEveryEncoding(secret), secret.slice(0, 12)).toBe(true);
  });
});

function texts(value: unknown): string[] {
  const out: string[] = [];
  let e: unknown = value;
  for (let depth = 0; e !== undefined && e !== null && depth < 8; depth++) {
    out.push(String(e), String((e as Error).message ?? ""), String((e as Error).stack ?? ""), JSON.stringify(e) ?? "");
    if (isAudienceError(e)) out.push(e.supportReport());
    e = (e as { cause?: unknown }).cause;
  }
  return out;
}

/** A body that carries every echo form of each secret, written by hand so `\u` escapes survive. */
function echoBody(secrets: readonly string[]): string {
  const fields: string[] = [];
  secrets.forEach((secret, i) => {
    for (const [name, form] of Object.entries(echoForms(secret))) fields.push(`"${name}${i}": ${JSON.stringify(form)}`);
    // Python's json.dumps (ensure_ascii): every non-ASCII character as \uXXXX
    const ascii = JSON.stringify(secret).replace(
      /[\u007f-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
    fields.push(`"ascii${i}": ${ascii}`);
  });
  // FastAPI's validation error echoes the offending input under detail[].input
  fields.push(
    `"detail": [{"type": "string_too_short", "loc": ["body", "password"], "input": ${JSON.stringify(secrets[0])}}]`,
  );
  return `{${fields.join(", ")}, "code": "error.validation"}`;
}

function expectNoSecret(haystack: readonly string[], secrets: readonly string[]): void {
  for (const secret of secrets) {
    for (const text of haystack) {
      const found = findSecret(text, secret);
      expect(found, `secret ${JSON.stringify(secret.slice(0, 4))}… leaked`).toBeUndefined();
    }
  }
}

describe.each(passwords)("redaction of every encoding (password %j)", (password) => {
  const basic = Buffer.from(`${username}:${password}`).toString("base64");
  const lines: string[] = [];
  const logger = {
    debug: (m: string, d?: unknown) => lines.push(`debug ${m} ${JSON.stringify(d)}`),
    info: (m: string, d?: unknown) => lines.push(`info ${m} ${JSON.stringify(d)}`),
    warn: (m: string, d?: unknown) => lines.push(`warn ${m} ${JSON.stringify(d)}`),
  };

  it("a refused sign-in that echoes the password in every form leaks none of them", async () => {
    lines.length = 0;
    api = await startFakeApi();
    api.handle((req, res) => {
      const text = echoBody([password, `${username}:${password}`]);
      res.writeHead(400, {
        "content-type": "application/json",
        "x-request-id": Buffer.from(password).toString("base64url"),
        "x-echo": `Basic ${basic}`,
      });
      res.end(text);
      void req;
    });
    const client = createAudienceClient({ baseUrl: api.url, credentials: { username, password }, logger });
    const error = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "AuthenticationError", status: 400 });
    expectNoSecret([...texts(error), ...lines], [password, `${username}:${password}`]);
    expect(texts(error).join("\n")).toContain("[REDACTED]");
  });

  it("an error response echoing the tokens and the password, and a token as x-request-id, leaks none", async () => {
    lines.length = 0;
    api = await startFakeApi();
    const client = createAudienceClient({
      baseUrl: api.url,
      credentials: { username, password },
      logger,
      retry: { maxAttempts: 1 },
    });
    await client.GET("/events/{eid}", { params: { path: { eid: "warm" } } });
    const { AccessToken, RefreshToken, IdToken } = api.tokens();
    const secrets = [AccessToken, RefreshToken, IdToken, password, `${username}:${password}`];
    api.route((_req, res) => {
      res.writeHead(500, { "content-type": "application/json", "x-request-id": AccessToken, "x-echo": RefreshToken });
      res.end(echoBody(secrets));
    });
    const raw = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    expect(raw.response.status).toBe(500);
    const thrown = (() => {
      try {
        unwrap(raw);
      } catch (e) {
        return e;
      }
    })();
    expect(thrown).toMatchObject({ name: "ServerError", status: 500 });
    expectNoSecret([JSON.stringify(raw.error), String(raw.error), ...texts(thrown), ...lines], secrets);
    expect(JSON.stringify(raw.error)).toContain("[REDACTED]");
  });

  it("unwrap of a result no client made: the status's typed error, the secret headers masked, the rest as sent", () => {
    // What a plain openapi-fetch call resolves to: no client, so no secret is held and no call record.
    const response = new Response(JSON.stringify({ code: "error.event.not_found" }), {
      status: 404,
      headers: { authorization: "Bearer abc.def", cookie: "s=1", "x-request-id": "req-7" },
    });
    const thrown = (() => {
      try {
        unwrap({ error: { code: "error.event.not_found" }, response });
      } catch (e) {
        return e;
      }
    })();
    expect(thrown).toMatchObject({
      name: "NotFoundError",
      status: 404,
      code: "error.event.not_found",
      requestId: "req-7",
      body: { code: "error.event.not_found" },
      headers: expect.objectContaining({
        authorization: "Bearer [REDACTED]",
        cookie: "[REDACTED]",
        "x-request-id": "req-7",
      }),
    });
    expect(String(thrown)).toContain("HTTP 404, not found (error.event.not_found) [request id req-7]");
    expect(texts(thrown).join("\n")).not.toContain("abc.def");
  });

  it("a transport failure whose message and cause carry the token and password leaks neither", async () => {
    lines.length = 0;
    api = await startFakeApi();
    let token = "";
    const client = createAudienceClient({
      baseUrl: api.url,
      credentials: { username, password },
      logger,
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
      fetch: async (request) => {
        if (apiRelative(new URL(request.url).pathname).startsWith("/auth")) return fetch(request);
        token = request.headers.get("authorization") ?? "";
        const inner = new Error(`socket closed for ${token} (${encodeURIComponent(password)})`);
        throw new TypeError(`fetch failed: ${Buffer.from(token).toString("base64")}`, { cause: inner });
      },
    });
    const error = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "NetworkError" });
    // the cause is kept (redacted), as NetworkError's documentation says
    expect((error as Error).cause).toBeInstanceOf(Error);
    expect(String(((error as Error).cause as Error).cause)).toContain("socket closed for");
    expectNoSecret([...texts(error), ...lines], [token.replace("Bearer ", ""), password]);
  });
});

describe("redaction keeps text readable", () => {
  it("masks a 3-character password without touching the surrounding words", async () => {
    api = await startFakeApi();
    api.handle((_req, res) => json(res, 401, { message: "wrong password: xyz for user" }));
    const client = createAudienceClient({ baseUrl: api.url, credentials: { username, password: "xyz" } });
    const error = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch((e: unknown) => e);
    expect((error as { body: unknown }).body).toEqual({ message: "wrong password: [REDACTED] for user" });
  });
});

describe("memory stays bounded over a long life", () => {
  it("2 000 refreshes keep only the secrets that can still appear", async () => {
    const { Redactor } = await import("../../src/internal/redact.ts");
    const redactor = new Redactor();
    redactor.set("password", "pw-long-life", "u:pw-long-life");
    const sizes: number[] = [];
    let previous = "";
    for (let i = 0; i < 2_000; i++) {
      const token = `access-token-${i}-${"x".repeat(1_000)}`;
      redactor.set("access", token);
      redactor.set("id", `id-token-${i}-${"y".repeat(1_000)}`);
      if (i % 500 === 1) sizes.push(redactor.size);
      if (i === 1_999) {
        // the current and the previous token are masked; older ones are forgotten
        expect(redactor.text(`${token} ${previous}`)).toBe("[REDACTED] [REDACTED]");
        expect(redactor.text("access-token-5-")).toBe("access-token-5-");
      }
      previous = token;
    }
    expect(new Set(sizes).size).toBe(1); // the same number of forms after 500 refreshes as after 2 000
  });
});

describe("a token replaced while a call it was sent with is in flight (fault run, seed 20261122)", () => {
  it("stays masked for retainMs after it is replaced, however many refreshes come in between", async () => {
    const { Redactor } = await import("../../src/internal/redact.ts");
    let now = 0;
    const redactor = new Redactor({ retainMs: 35_000, now: () => now });
    const tokens = Array.from({ length: 5 }, (_, i) => `access-token-gen-${i}-${"z".repeat(40)}`);
    for (const token of tokens) {
      redactor.set("access", token);
      now += 1_000; // a 401 storm: a refresh a second
    }
    // A slow 504 answering an attempt sent with the first token echoes it after four refreshes.
    expect(redactor.text(`{"echo":{"authorization":"Bearer ${tokens[0]}"}}`)).toBe(
      '{"echo":{"authorization":"Bearer [REDACTED]"}}',
    );
    now += 35_000; // no attempt sent with it can answer any more
    redactor.set("access", "access-token-gen-5-later");
    expect(redactor.text(tokens[0] as string)).toBe(tokens[0]);
    expect(redactor.text(tokens[4] as string)).toBe("[REDACTED]"); // the previous generation is always kept
  });

  it("a token stays masked until its own expiry, past retainMs and however many refreshes come", async () => {
    const { Redactor } = await import("../../src/internal/redact.ts");
    let now = 0;
    // Each token says it can be used for an hour (its exp), as Section 5.2's access tokens do.
    const expiry = new Map<string, number>();
    const redactor = new Redactor({ retainMs: 35_000, validUntil: (s) => expiry.get(s), now: () => now });
    const token = (i: number) => `access-token-${i}-${"x".repeat(100)}`;
    for (let i = 0; i < 200; i++) {
      expiry.set(token(i), now + 3_600_000);
      redactor.set("access", token(i));
      now += 1_000; // a 401 storm: a refresh a second, 200 of them
    }
    expect(redactor.text(token(0))).toBe("[REDACTED]"); // 200 generations and 200 s later, still valid
    now = 3_600_000 + 150_000; // tokens 0–150 have expired
    redactor.set("access", "access-token-after-expiry");
    expect(redactor.text(token(100))).toBe(token(100));
    expect(redactor.text(token(160))).toBe("[REDACTED]");
  });

  it("is bounded in memory: past maxRetiredChars the generations retired first are forgotten", async () => {
    const { Redactor } = await import("../../src/internal/redact.ts");
    const token = (i: number) => `access-token-${i}-${"x".repeat(100)}`;
    const one = new Redactor();
    one.set("access", token(0));
    const perGeneration = one.size; // forms per token, each about as long as the token or twice
    const redactor = new Redactor({
      validUntil: () => Number.POSITIVE_INFINITY,
      maxRetiredChars: 50_000,
      now: () => 0,
    });
    for (let i = 0; i < 2_000; i++) redactor.set("access", token(i));
    const sizes = redactor.size;
    for (let i = 2_000; i < 2_500; i++) redactor.set("access", token(i));
    expect(redactor.size).toBe(sizes); // the same after 2 000 and 2 500 refreshes
    expect(redactor.size).toBeLessThan((50_000 / 100 + 2) * perGeneration);
    expect(redactor.text(token(2_498))).toBe("[REDACTED]");
    expect(redactor.text(token(0))).toBe(token(0));
  });
});
