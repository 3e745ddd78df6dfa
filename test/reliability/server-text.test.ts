/**
 * Every text built from a server value is terminal-safe, whatever object holds it: drift reports,
 * spans, errors (every field but the parsed body, which is the server's data as sent) and log
 * lines. A real local server answers every response, the sign-in's included, with C1 controls
 * (CSI U+009B, NEL U+0085) in `x-request-id` and the content type, as Node writes latin1 headers.
 */
import type { Tracer } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { createAudienceClient, type DriftReport } from "../../src/index.ts";
import { json, type RecordingServer, startRecordingServer } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const unsafe = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
const HOSTILE_ID = "req-\u009b2J-\u0085next";
const HOSTILE_TYPE = "application/json; charset=utf-8; x=\u009b2J\u0085";

let server: RecordingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Every string reachable from `value` (own properties, message, name, cause), but a parsed `body`. */
function strings(value: unknown, path = "", seen = new Set<unknown>()): Array<[string, string]> {
  if (typeof value === "string") return [[path, value]];
  if (typeof value !== "object" || value === null || seen.has(value)) return [];
  seen.add(value);
  const out: Array<[string, string]> = [];
  const keys = new Set([...Object.keys(value), ...(value instanceof Error ? ["message", "name", "cause"] : [])]);
  for (const key of keys) {
    if (key === "body") continue;
    out.push(...strings((value as Record<string, unknown>)[key], `${path}.${key}`, seen));
  }
  if (value instanceof Error && "supportReport" in value && typeof value.supportReport === "function")
    out.push([`${path}.supportReport()`, String(value.supportReport())]);
  return out;
}

describe("server values reach no report, error, span or log line raw", () => {
  it("C1 controls in x-request-id and content types: drift reports, spans, errors and logs escape them", async () => {
    const tokens = makeTokens();
    server = await startRecordingServer((req, res) => {
      const headers = { "x-request-id": HOSTILE_ID };
      if (req.path === "/auth") return json(res, 200, tokens, headers);
      if (req.path === "/events/html") {
        res.writeHead(200, { ...headers, "content-type": "text/html\u009b2J\u0085" });
        res.end("<p>maintenance</p>");
        return;
      }
      const body = req.path === "/events/missing" ? { message: "error.not_found" } : { unexpected: 1 };
      const text = JSON.stringify(body);
      res.writeHead(req.path === "/events/missing" ? 404 : 200, { ...headers, "content-type": HOSTILE_TYPE });
      res.end(text);
      return;
    });
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tracer: Tracer = provider.getTracer("server-text.test");
    const reports: DriftReport[] = [];
    const lines: Array<[string, string]> = [];
    const log = (message: string, details?: unknown) => lines.push(...strings({ message, details }));
    const client = createAudienceClient({
      baseUrl: server.url,
      credentials: { username: "ops@acme.test", password: "pw-server-text" },
      tracer,
      logger: { debug: log, info: log, warn: log },
      onDrift: (report) => reports.push(report),
      retry: { baseDelayMs: 1, maxDelayMs: 2, maxAttempts: 2 },
    });
    const ok = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    const missing = await client.GET("/events/{eid}", { params: { path: { eid: "missing" } } });
    const html = await client.GET("/events/{eid}", { params: { path: { eid: "html" } } }).catch((e: unknown) => e);
    expect(html).toBeInstanceOf(Error);
    expect(ok.response.status).toBe(200);
    expect(missing.error).toBeDefined();
    // Drift checks run after the call (their code loads on first use): wait for them, not a fixed time.
    for (let waited = 0; reports.length === 0 && waited < 5000; waited += 10)
      await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 50));
    expect(reports.length).toBeGreaterThan(0);
    const spans = exporter
      .getFinishedSpans()
      .map((s) => ({ name: s.name, attributes: s.attributes, status: s.status }));
    const found = [
      ...strings(reports, "drift"),
      ...strings(spans, "spans"),
      ...strings(missing.error, "error"),
      ...strings(html, "networkError"),
      ...lines,
    ].filter(([, text]) => unsafe.test(text));
    expect(found).toEqual([]);
    // The id is still there, readable: its controls written as \uXXXX.
    expect(JSON.stringify(reports)).toContain("req-\\\\u009b2J-\\\\u0085next");
  });
});
