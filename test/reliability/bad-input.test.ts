/**
 * Bad input: every public function, option and raw path fed malformed
 * input. Each row must give a ValidationError naming the field (a TypeError naming the option,
 * for createAudienceClient's options), with nothing sent — the recording server's request count
 * does not move — and the client must stay usable: a good call succeeds after every row.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClientWithSeams } from "../../src/create-client.ts";
import {
  type AudienceClient,
  type AudienceClientOptions,
  assertXlsx,
  createAudienceClient,
  createCampaign,
  createEventSeries,
  getOptimisationStatus,
  ingestExcel,
  ingestTransactionSummary,
  isTerminalStatus,
  listAvailableEventsForSeries,
  listEventCampaigns,
  listEvents,
  listNotifications,
  listPartnerMessages,
  normalizeBenchmark,
  paginate,
  poll,
  readBenchmark,
  readPrediction,
  setClientCampaignStatus,
  setOptimisationStatus,
  unwrap,
  uploadMedia,
  ValidationError,
  waitForClientCampaignStatusTask,
  watchAdPlatformConnection,
} from "../../src/index.ts";
import { ingestExcelFile, uploadMediaFile } from "../../src/node/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { makeZip, minimalXlsxEntries } from "../support/make-zip.ts";
import { createSecretHarness } from "./secret-harness.ts";

/** With a quote, a backslash and non-ASCII: the forms JSON escaping and encodings change. */
const PASSWORD = 'pw-"bad"\\input-é-correct-horse';
const HUGE = "e".repeat(1 << 20); // a 1 MB id
const XLSX = makeZip(minimalXlsxEntries());
const CSV = new TextEncoder().encode("date,type,sold\n2026-10-01,GA,10\n");
const EMPTY = new Uint8Array(0);
const DRAFT = { goal: "ROAS", total_budget: 100, start_date: "2027-01-01", end_date: "2027-01-31" } as const;
const SUMMARY = { eid: "e1", from: "2026-10-01", to: "2026-10-31", tickets: [{ type: "GA", sold: 10, revenue: 250 }] };

const harness = createSecretHarness();
harness.addSecrets(PASSWORD);
let api: FakeApi;
let client: AudienceClient;
const good = (): Omit<AudienceClientOptions, "baseUrl"> & { baseUrl: string } => ({
  baseUrl: api.url,
  credentials: { username: "ops@acme.test", password: PASSWORD },
  logger: harness.logger,
});

type Expected = { kind: "ValidationError"; field: string } | { kind: "TypeError"; option: string };
interface Row {
  readonly group: string;
  readonly name: string;
  readonly run: () => unknown;
  readonly expected: Expected;
}

const rows: Row[] = [];
/** A row that must fail with a ValidationError on `field`. */
const v = (group: string, name: string, field: string, run: () => unknown) =>
  rows.push({ group, name, run, expected: { kind: "ValidationError", field } });
/** A createAudienceClient option that must be refused with a TypeError naming it. */
const opt = (option: string, name: string, override: Record<string, unknown>) =>
  rows.push({
    group: "options",
    name: `${option}: ${name}`,
    run: () => createAudienceClient({ ...good(), ...override } as AudienceClientOptions),
    expected: { kind: "TypeError", option },
  });
const drain = async (iterator: AsyncIterable<unknown>) => {
  for await (const _ of iterator) break;
};
const raw = (eid: unknown) => client.GET("/events/{eid}", { params: { path: { eid: eid as string } } });

// ---- createAudienceClient options (TypeError naming the option) -------------------------------
rows.push({
  group: "options",
  name: "options: null",
  run: () => createAudienceClient(null as never),
  expected: { kind: "TypeError", option: "options" },
});
opt("baseUrl", "non-https, not loopback", { baseUrl: "http://api.example.test/api/v3" });
opt("baseUrl", "empty string", { baseUrl: "" });
opt("baseUrl", "whitespace", { baseUrl: "   " });
opt("baseUrl", "wrong type (number)", { baseUrl: 443 });
opt("baseUrl", "not a URL", { baseUrl: "api.example.test/api/v3" });
opt("baseUrl", "user info in the URL", { baseUrl: "https://ops:secret@api.example.test/api/v3" });
opt("baseUrl", "query string", { baseUrl: "https://api.example.test/api/v3?debug=1" });
opt("baseUrl", "a look-alike of loopback", { baseUrl: "http://127.0.0.1.example.test/api/v3" });
opt("mediaUrl", "non-https, not loopback", { mediaUrl: "http://media.example.test/api/media" });
opt("headers", "a header name with a space", { headers: { "x trace": "t1" } });
opt("headers", "an empty header name", { headers: { "": "t1" } });
opt("credentials", "wrong type", { credentials: "ops:secret" });
opt("credentials.username", "empty string", { credentials: { username: "", password: PASSWORD } });
opt("credentials.username", "wrong type", { credentials: { username: 7, password: PASSWORD } });
opt("credentials.password", "empty string", { credentials: { username: "ops", password: "" } });
opt("credentials", "no credentials, session or tokenStore", { credentials: undefined });
opt("session.accessToken", "empty string", { credentials: undefined, session: { accessToken: "" } });
opt("session.accessToken", "CR/LF (header injection)", {
  credentials: undefined,
  session: { accessToken: "abc\r\nX-Evil: 1" },
});
opt("session.accessToken", "whitespace", { credentials: undefined, session: { accessToken: "abc def" } });
opt("session.refreshToken", "whitespace", {
  credentials: undefined,
  session: { accessToken: "abcdef", refreshToken: "r r" },
});
opt("tokenStore", "without get/set", { tokenStore: {} });
opt("partnerId", "empty string", { partnerId: "" });
opt("partnerId", "CR/LF (header injection)", { partnerId: "partner-id-acme\r\nX-Evil: 1" });
opt("partnerId", "leading whitespace", { partnerId: " partner-id-acme" });
opt("partnerId", "inner whitespace", { partnerId: "partner id acme" });
opt("partnerId", "tab", { partnerId: "partner-id-acme\t" });
opt("partnerId", "wrong type", { partnerId: 42 });
opt("partnerIdPatterns", "strings instead of RegExp", { partnerIdPatterns: ["^P\\d+$"] });
opt("fetch", "not a function", { fetch: "fetch" });
for (const [name, value] of [
  ["9 (above Section 8.4)", 9],
  ["0", 0],
  ["negative", -1],
  ["fraction", 1.5],
  ["NaN", Number.NaN],
  ["Infinity", Number.POSITIVE_INFINITY],
  ["string", "8"],
] as const) {
  opt("maxConcurrency", name, { maxConcurrency: value });
}
opt("retry", "wrong type", { retry: "fast" });
for (const [name, value] of [
  ["6 (above Section 8.2)", 6],
  ["0", 0],
  ["NaN", Number.NaN],
  ["-Infinity", Number.NEGATIVE_INFINITY],
] as const)
  opt("retry.maxAttempts", name, { retry: { maxAttempts: value } });
for (const [name, value] of [
  ["negative", -1],
  ["NaN", Number.NaN],
  ["Infinity", Number.POSITIVE_INFINITY],
] as const)
  opt("retry.baseDelayMs", name, { retry: { baseDelayMs: value } });
opt("retry.maxDelayMs", "negative", { retry: { maxDelayMs: -5 } });
for (const [name, value] of [
  ["reversed", [10, 5]],
  ["NaN", [Number.NaN, 1]],
  ["one number", [5]],
  ["string", "5-10"],
  ["negative", [-1, 5]],
  ["Infinity", [0, Number.POSITIVE_INFINITY]],
] as const) {
  opt("retry.rateLimitDelayMs", name, { retry: { rateLimitDelayMs: value } });
}
opt("retry.maxRetryAfterMs", "negative", { retry: { maxRetryAfterMs: -1 } });
opt("retry.maxRetryAfterMs", "Infinity", { retry: { maxRetryAfterMs: Number.POSITIVE_INFINITY } });
opt("retry.deadlineMs", "NaN", { retry: { deadlineMs: Number.NaN } });
for (const [name, value] of [
  ["0", 0],
  ["negative", -1],
  ["NaN", Number.NaN],
  ["Infinity", Number.POSITIVE_INFINITY],
  ["fraction", 0.5],
] as const)
  opt("timeoutMs", name, { timeoutMs: value });
opt("logger", "wrong type", { logger: "console" });
for (const [name, value] of [
  ["empty string", ""],
  ["'.'", "."],
  ["'..'", ".."],
  ["whitespace", "meta ads"],
  ["CR/LF", "meta\r\n"],
] as const)
  opt("adPlatform", name, { adPlatform: value });
// Percent-encoded dot segments: a server that decodes the segment would see them. One rule for
// every identifier segment: the adPlatform option, and a call's own adplatform or eid. A `/` or `\`,
// plain or percent-encoded, is no longer refused: openapi-fetch percent-encodes it into one segment
// (`meta%2Fads`, `meta%252Fads`), as test/unit/path-values.test.ts shows on the wire.
const encodedSegments = ["%2e", "%2e%2e", "%2E.", ".%2E", "%2E%2E", "%252e%252e", "%25%32%65", "meta%zz"];
for (const value of encodedSegments) opt("adPlatform", JSON.stringify(value), { adPlatform: value });
opt("maxPageLimit", "0", { maxPageLimit: 0 });
opt("maxPageLimit", "NaN", { maxPageLimit: Number.NaN });
opt("maxPageLimit", "1001 (above the client's ceiling)", { maxPageLimit: 1001 });
opt("maxPageLimit", "10000 (Section 8.5)", { maxPageLimit: 10_000 });
opt("maxPageLimit", "Infinity", { maxPageLimit: Number.POSITIVE_INFINITY });
opt("benchmarkFields", "an empty field name", { benchmarkFields: [""] });
opt("benchmarkFields", "a string", { benchmarkFields: "benchmark" });
for (const [name, value] of [
  ["negative", -1],
  ["NaN", Number.NaN],
  ["Infinity", Number.POSITIVE_INFINITY],
] as const)
  opt("rateLimitQuietPeriodMs", name, { rateLimitQuietPeriodMs: value });
opt("ratePacing", "wrong type", { ratePacing: "yes" });

// ---- raw calls: path values --------------------------------------------------------------------
const badIds: Array<[string, unknown]> = [
  ["empty string", ""],
  ["spaces only", "   "],
  ["tab", "\t"],
  ["leading space", " e1"],
  ["trailing space", "e1 "],
  ["inner space", "e 1"],
  ["CR/LF", "e1\r\n"],
  ["header injection", "e1\r\nX-Evil: 1"],
  ["NUL", "e\u00001"],
  ["'.'", "."],
  ["'..'", ".."],
  ["%2e", "%2e"],
  ["%2E%2e", "%2E%2e"],
  [".%2e", ".%2e"],
  ["1 MB", HUGE],
  ["NaN", Number.NaN],
  ["Infinity", Number.POSITIVE_INFINITY],
  ["-Infinity", Number.NEGATIVE_INFINITY],
  ["null", null],
  ["undefined", undefined],
  ["object", { id: "e1" }],
  ["array", ["e1"]],
  ["boolean", true],
];
for (const [name, eid] of badIds) v("raw path values", `eid ${name}`, "params.path.eid", () => raw(eid));
for (const [name, value] of [
  ["'..'", ".."],
  ["%2e%2e", "%2e%2e"],
  ["inner space", "meta ads"],
  ["1 MB", HUGE],
] as const) {
  v("raw path values", `adplatform ${name}`, "params.path.adplatform", () =>
    client.GET("/integrations/{adplatform}/events/{eid}/campaign_results", {
      params: { path: { adplatform: value, eid: "e1" } },
    }),
  );
}
for (const value of encodedSegments) {
  v("raw path values", `adplatform ${JSON.stringify(value)}`, "params.path.adplatform", () =>
    client.GET("/integrations/{adplatform}/events/{eid}/campaign_results", {
      params: { path: { adplatform: value, eid: "e1" } },
    }),
  );
  v("raw path values", `eid ${JSON.stringify(value)}`, "params.path.eid", () => raw(value));
}
v("raw path values", "adplatform missing (no adPlatform option)", "params.path.adplatform", () =>
  client.GET("/integrations/connect/{adplatform}/status", { params: { path: {} } }),
);

// ---- raw calls: paths themselves -----------------------------------------------------------------
const rawPath = (path: string) => () => client.GET(path as never, {} as never);
v("raw paths", "'..' segment (leaves the template)", "path", rawPath("/events/../partners/"));
v("raw paths", "'..' segments (leave /api/v3)", "path", rawPath("/../../admin/"));
v("raw paths", "%2e%2e segment", "path", rawPath("/events/%2e%2e/partners/"));
v("raw paths", "'.' segment", "path", rawPath("/events/./e1"));
v("raw paths", "query smuggled past validation", "path", rawPath("/events/?limit=10000"));
v("raw paths", "fragment", "path", rawPath("/events/#x"));
v("raw paths", "CR/LF", "path", rawPath("/events/e1\r\nX-Evil: 1"));
v("raw paths", "whitespace", "path", rawPath("/events/e 1"));
v("raw paths", "no leading slash", "path", rawPath("events/"));
v("raw paths", "wrong type", "path", () => client.request("get", 42 as never, {} as never));

// ---- raw calls: query and body ---------------------------------------------------------------------
const events = (query: Record<string, unknown>) => () => client.GET("/events/", { params: { query: query as never } });
v("raw query", "limit=10000 (Section 8.5)", "query.limit", events({ limit: 10_000 }));
v("raw query", "limit 0", "query.limit", events({ limit: 0 }));
v("raw query", "limit NaN", "query.limit", events({ limit: Number.NaN }));
v("raw query", "limit Infinity", "query.limit", events({ limit: Number.POSITIVE_INFINITY }));
v("raw query", "limit fraction", "query.limit", events({ limit: 1.5 }));
v("raw query", "limit as string", "query.limit", events({ limit: "10" }));
v(
  "raw query",
  "limit=10000 in a parameter object (sent as limit)",
  "query.filters.limit",
  events({ filters: { limit: 10_000 } }),
);
v("raw query", "a pasted query line holding a secret as a key", "query", events({ [`token=${PASSWORD}`]: new Date() }));
v("raw query", "a JSON __proto__ parameter object with limit=10000", "query.__proto__.limit", () =>
  client.GET("/events/", { params: { query: JSON.parse('{"__proto__": {"limit": 10000}}') } }),
);
v("raw query", "page 0", "query.page", events({ page: 0 }));
v("raw query", "page -1", "query.page", events({ page: -1 }));
v("raw query", "descending as string", "query.descending", events({ descending: "yes" }));
v("raw query", "campaigns limit=10000", "query.limit", () =>
  client.GET("/events/{eid}/campaigns", { params: { path: { eid: "e1" }, query: { limit: 10_000 } } }),
);
v("raw query", "messages limit=10000", "query.limit", () =>
  client.GET("/messages/partner/", { params: { query: { limit: 10_000 } } }),
);
const suggested = (query: Record<string, unknown>) => () =>
  client.GET("/events/{eid}/suggested_tcs", { params: { path: { eid: "e1" }, query: query as never } });
for (const [name, budget] of [
  ["negative", -100],
  ["zero", 0],
  ["NaN", Number.NaN],
  ["Infinity", Number.POSITIVE_INFINITY],
  ["-Infinity", Number.NEGATIVE_INFINITY],
  ["string", "100"],
] as const) {
  v("raw query", `budget ${name}`, "query.budget", suggested({ budget }));
}
v("raw query", "goal not in the enum", "query.goal", suggested({ goal: "MAXIMIZE" }));
v("raw query", "expected-value budget negative", "query.budget", () =>
  client.GET("/events/{eid}/campaigns_expected_value", { params: { path: { eid: "e1" }, query: { budget: -1 } } }),
);
v("raw query", "runtime_in_days 0", "query.runtime_in_days", () =>
  client.GET("/events/{eid}/budget_min_max", { params: { path: { eid: "e1" }, query: { runtime_in_days: 0 } } }),
);
v("raw query", "runtime_in_days fraction", "query.runtime_in_days", () =>
  client.GET("/events/{eid}/budget_min_max", { params: { path: { eid: "e1" }, query: { runtime_in_days: 2.5 } } }),
);
v("raw query", "prediction type missing", "query.type", () =>
  client.GET("/events/{eid}/lookout_prediction", { params: { path: { eid: "e1" }, query: {} as never } }),
);
v("raw query", "prediction type not in the enum", "query.type", () =>
  client.GET("/events/{eid}/lookout_prediction_benchmark", {
    params: { path: { eid: "e1" }, query: { type: "revenue" as never } },
  }),
);
v("raw query", "has_pixel as string", "query.has_pixel", () =>
  client.GET("/setup_processes/call_to_action/", { params: { query: { has_pixel: "yes" as never } } }),
);
v("raw query", "XLSX ingest eid empty", "query.eid", () =>
  client.POST("/ingest/transaction_summary/from_excel", { params: { query: { eid: "" } }, body: {} as never }),
);
v("raw query", "XLSX ingest eid CR/LF", "query.eid", () =>
  client.POST("/ingest/transaction_summary/from_excel", { params: { query: { eid: "e1\r\n" } }, body: {} as never }),
);
v("raw query", "XLSX ingest eid 1 MB", "query.eid", () =>
  client.POST("/ingest/transaction_summary/from_excel", { params: { query: { eid: HUGE } }, body: {} as never }),
);

const setupPost = (body: unknown) => () =>
  client.POST("/setup_processes/{eid}", { params: { path: { eid: "raw-setup" } }, body: body as never });
for (const [name, value] of [
  ["2026-02-30", "2026-02-30"],
  ["2026-13-01", "2026-13-01"],
  ["2025-02-29 (not a leap year)", "2025-02-29"],
  ["slashes", "2026/01/01"],
  ["empty", ""],
  ["a number", 20260101],
] as const) {
  v("raw body", `start_date ${name}`, "body.start_date", setupPost({ ...DRAFT, start_date: value }));
}
v(
  "raw body",
  "end_date before start_date",
  "body.end_date",
  setupPost({ ...DRAFT, start_date: "2027-02-01", end_date: "2027-01-31" }),
);
for (const [name, value] of [
  ["negative", -100],
  ["zero", 0],
  ["NaN", Number.NaN],
  ["Infinity", Number.POSITIVE_INFINITY],
  ["string", "100"],
] as const) {
  v("raw body", `total_budget ${name}`, "body.total_budget", setupPost({ ...DRAFT, total_budget: value }));
}
v("raw body", "goal not in the enum", "body.goal", setupPost({ ...DRAFT, goal: "FAME" }));
v("raw body", "tc_run_id fraction", "body.tc_run_id", setupPost({ ...DRAFT, tc_run_id: 1.5 }));
v("raw body", "tc_run_id NaN", "body.tc_run_id", setupPost({ ...DRAFT, tc_run_id: Number.NaN }));
v("raw body", "creatives not an array", "body.creatives", setupPost({ ...DRAFT, creatives: "banner.png" }));
v("raw body", "setup body a string", "body", setupPost("draft"));
v("raw body", "PUT with reversed dates", "body.end_date", () =>
  client.PUT("/setup_processes/{eid}", {
    params: { path: { eid: "raw-setup" } },
    body: { ...DRAFT, start_date: "2027-03-01", end_date: "2027-02-01" },
  }),
);
const edit = (body: Record<string, unknown>) => () =>
  client.POST("/campaigns_setup", { body: { eid: "e1", tc: "jazz lovers", tc_run_id: 3, ...body } as never });
v("raw body", "campaigns_setup tc empty", "body.tc", edit({ tc: "" }));
v("raw body", "campaigns_setup tc_run_id fraction", "body.tc_run_id", edit({ tc_run_id: 2.5 }));
v("raw body", "campaigns_setup eid with whitespace", "body.eid", edit({ eid: "e 1" }));
v("raw body", "campaigns_setup eid 1 MB", "body.eid", edit({ eid: HUGE }));
v("raw body", "sign-in with an empty password", "body.password", () =>
  client.POST("/auth", { body: { username: "ops", password: "" } }),
);
v("raw body", "refresh with an empty token", "body.token", () =>
  client.POST("/auth/refresh_token", { body: { token: "" } }),
);

// ---- raw calls: the method and the init's fields (the client's checks, then the runtime's) -------

const readWith = (extra: Record<string, unknown>) => () =>
  client.GET("/events/{eid}", { params: { path: { eid: "init-fields" } }, ...extra } as never);
for (const [name, field, extra] of [
  ["signal a plain object", "signal", { signal: {} }],
  ["signal a string", "signal", { signal: "abort" }],
  ["fetch not a function", "fetch", { fetch: "fetch" }],
  ["Request not a class", "Request", { Request: {} }],
  ["parseAs unknown", "parseAs", { parseAs: "yaml" }],
  ["middleware not an array", "middleware", { middleware: { onRequest: () => undefined } }],
  ["middleware entry a number", "middleware.0", { middleware: [5] }],
  ["priority unknown", "priority", { priority: "urgent" }],
  ["headers a string", "headers", { headers: "x-a: 1" }],
  ["a header name with a space", "headers", { headers: { "x trace": "t1" } }],
  ["a header name with a colon", "headers", { headers: { "x:y": "t1" } }],
  ["a header name with CR/LF", "headers", { headers: { "x\r\ny": "t1" } }],
  [
    "a pasted header line holding a secret as a name",
    "headers",
    { headers: { [`Authorization: Bearer ${PASSWORD}`]: "" } },
  ],
  ["a header pair with CR/LF", "headers.0", { headers: [["x-trace", "t1\r\nx-evil: 1"]] }],
  ["a header pair of one item", "headers.0", { headers: [["x-trace"]] }],
  ["params.header an array", "header", { params: { path: { eid: "init-fields" }, header: [["x-a", "1"]] } }],
  ["a body on a GET", "body", { body: { a: 1 } }],
  ["cache unknown (the runtime's check)", "init", { cache: "sometimes" }],
  ["mode navigate (the runtime's check)", "init", { mode: "navigate" }],
  ["referrerPolicy unknown (the runtime's check)", "init", { referrerPolicy: "everyone" }],
] as const) {
  v("raw init", name, field, readWith(extra));
}
v("raw init", "the init a number", "init", () => client.GET("/events/{eid}", 5 as never));
v("raw init", "a method that is no token", "method", () => client.request("G ET" as never, "/events/" as never));
v("raw init", "a method the Fetch standard forbids", "method", () =>
  client.request("TRACE" as never, "/events/" as never),
);

// ---- helpers -------------------------------------------------------------------------------------
const ingest = (summary: unknown) => () => ingestTransactionSummary(client, summary as never);
v("ingestTransactionSummary", "from 2026-02-30", "body.from", ingest({ ...SUMMARY, from: "2026-02-30" }));
v("ingestTransactionSummary", "to 2026-13-01", "body.to", ingest({ ...SUMMARY, to: "2026-13-01" }));
v(
  "ingestTransactionSummary",
  "reversed range",
  "body.to",
  ingest({ ...SUMMARY, from: "2026-11-01", to: "2026-10-01" }),
);
v(
  "ingestTransactionSummary",
  "sold fraction",
  "body.tickets.0.sold",
  ingest({ ...SUMMARY, tickets: [{ type: "GA", sold: 1.5, revenue: 0 }] }),
);
v(
  "ingestTransactionSummary",
  "revenue NaN",
  "body.tickets.0.revenue",
  ingest({ ...SUMMARY, tickets: [{ type: "GA", sold: 1, revenue: Number.NaN }] }),
);
v(
  "ingestTransactionSummary",
  "revenue -Infinity",
  "body.tickets.0.revenue",
  ingest({ ...SUMMARY, tickets: [{ type: "GA", sold: 1, revenue: Number.NEGATIVE_INFINITY }] }),
);
v("ingestTransactionSummary", "eid empty", "body.eid", ingest({ ...SUMMARY, eid: "" }));
v("ingestTransactionSummary", "eid CR/LF", "body.eid", ingest({ ...SUMMARY, eid: "e1\r\n" }));
v("ingestTransactionSummary", "eid 1 MB", "body.eid", ingest({ ...SUMMARY, eid: HUGE }));
v("ingestTransactionSummary", "null", "body", ingest(null));

v("ingestExcel", "a CSV as XLSX", "workbook", () => ingestExcel(client, "e1", CSV));
v("ingestExcel", "a zero-byte file", "workbook", () => ingestExcel(client, "e1", EMPTY));
v("ingestExcel", "a string instead of bytes", "workbook", () =>
  ingestExcel(client, "e1", "transactions.xlsx" as never),
);
v("ingestExcel", "eid with a line break", "query.eid", () => ingestExcel(client, "e1\n", XLSX));
v("ingestExcel", "eid empty", "query.eid", () => ingestExcel(client, "", XLSX));
v("ingestExcelFile (node)", "empty path", "path", () => ingestExcelFile(client, "e1", ""));
v("ingestExcelFile (node)", "missing file", "path", () =>
  ingestExcelFile(client, "e1", "/nonexistent/transactions.xlsx"),
);
v("uploadMedia", "a zero-byte file", "file", () => uploadMedia(client, EMPTY, { filename: "banner.png" }));
v("uploadMedia", "filename with CR/LF", "filename", () => uploadMedia(client, XLSX, { filename: "banner\r\n.png" }));
v("uploadMedia", "filename empty", "filename", () => uploadMedia(client, XLSX, { filename: " " }));
v("uploadMedia", "no options", "filename", () => uploadMedia(client, XLSX, undefined as never));
v("uploadMedia", "a number instead of bytes", "file", () =>
  uploadMedia(client, 42 as never, { filename: "banner.png" }),
);
v("uploadMediaFile (node)", "empty path", "path", () => uploadMediaFile(client, ""));
// A bare signal where the options object goes was spread into no options: its abort was ignored.
const aSignal = () => new AbortController().signal as never;
v("ingestExcel", "a bare AbortSignal as options", "options", () => ingestExcel(client, "e1", XLSX, aSignal()));
v("ingestExcelFile (node)", "a bare AbortSignal as options", "options", () =>
  ingestExcelFile(client, "e1", "/nonexistent/transactions.xlsx", aSignal()),
);
v("ingestExcelFile (node)", "a string as options", "options", () =>
  ingestExcelFile(client, "e1", "/nonexistent/transactions.xlsx", "sales.xlsx" as never),
);
v("uploadMediaFile (node)", "a bare AbortSignal as options", "options", () =>
  uploadMediaFile(client, "/nonexistent/banner.png", aSignal()),
);
v("uploadMediaFile (node)", "a string as options", "options", () =>
  uploadMediaFile(client, "/nonexistent/banner.png", "image/png" as never),
);
v("assertXlsx", "a CSV", "file", () => assertXlsx(CSV));
v("assertXlsx", "zero bytes", "file", () => assertXlsx(EMPTY));
v("assertXlsx", "a string", "file", () => assertXlsx("PK\u0003\u0004" as never));
v("assertXlsx", "undefined", "file", () => assertXlsx(undefined as never));

const setup = (eid: unknown) => () => client.setupProcess(eid as string);
for (const [name, eid] of [
  ["empty", ""],
  ["whitespace", " "],
  ["inner space", "e 1"],
  ["CR/LF", "e1\r\n"],
  ["'..'", ".."],
  ["%2e%2e", "%2e%2e"],
  ["1 MB", HUGE],
  ["wrong type", { eid: "e1" }],
] as const) {
  v("setupProcess", `eid ${name}`, "eid", setup(eid));
}
v("setupProcess", "create with 2026-02-30", "body.start_date", () =>
  client.setupProcess("bad-create").create({ ...DRAFT, start_date: "2026-02-30" }),
);
v("setupProcess", "create with a reversed range", "body.end_date", () =>
  client.setupProcess("bad-create").create({ ...DRAFT, start_date: "2027-05-02", end_date: "2027-05-01" }),
);
v("setupProcess", "update with a negative budget", "body.total_budget", () =>
  client.setupProcess("bad-update").update({ ...DRAFT, total_budget: -1 }),
);
v("setupProcess", "autosave with NaN budget", "body.total_budget", () =>
  client.setupProcess("bad-autosave").autosave({ ...DRAFT, total_budget: Number.NaN }),
);
v("setupProcess", "editPublishedCluster with an empty tc", "body.tc", () =>
  client.setupProcess("bad-edit").editPublishedCluster({ tc: "", tc_run_id: 1 }),
);

v("listEvents", "limit=10000", "limit", () => drain(listEvents(client, { limit: 10_000 })));
v("listEvents", "limit 0", "limit", () => drain(listEvents(client, { limit: 0 })));
v("listEvents", "limit NaN", "limit", () => drain(listEvents(client, { limit: Number.NaN })));
v("listEvents", "maxItems NaN", "maxItems", () => drain(listEvents(client, { maxItems: Number.NaN })));
v("listEvents", "maxItems negative", "maxItems", () => drain(listEvents(client, { maxItems: -1 })));
// Compared, not checked for its type: "" yielded nothing, "5" and true were counted as numbers.
v("listEvents", "maxItems an empty string", "maxItems", () => drain(listEvents(client, { maxItems: "" as never })));
v("listEvents", "maxItems a numeric string", "maxItems", () => drain(listEvents(client, { maxItems: "5" as never })));
v("listEvents", "maxItems true", "maxItems", () => drain(listEvents(client, { maxItems: true as never })));
v("listEvents", "maxItems 1.5", "maxItems", () => drain(listEvents(client, { maxItems: 1.5 })));
v("listEventCampaigns", "eid '..'", "params.path.eid", () => drain(listEventCampaigns(client, "..")));
v("listEventCampaigns", "limit Infinity", "limit", () =>
  drain(listEventCampaigns(client, "e1", { limit: Number.POSITIVE_INFINITY })),
);
v("listPartnerMessages", "limit=10000", "limit", () => drain(listPartnerMessages(client, { limit: 10_000 })));
v("listNotifications", "limit -1", "limit", () => drain(listNotifications(client, { limit: -1 })));
v("readBenchmark", "type not in the enum", "query.type", () =>
  readBenchmark(client, "e1", { type: "revenue" as never }),
);
v("readBenchmark", "eid empty", "params.path.eid", () => readBenchmark(client, "", { type: "capacity" }));
v("readBenchmark", "unit not in the enum", "unit", () =>
  readBenchmark(client, "e1", { type: "capacity", unit: "permille" as never }),
);
v("readPrediction", "no options", "query.type", () => readPrediction(client, "e1", undefined as never));
v("createCampaign", "a nested object", "query.params.audience", () =>
  createCampaign(client, { audience: { age: 30 } as never }),
);
v("createCampaign", "a string instead of parameters", "query.params", () => createCampaign(client, "name=x" as never));
v("setClientCampaignStatus", "eid CR/LF", "params.path.eid", () =>
  setClientCampaignStatus(client, "e1\r\n", { status: "PAUSED" }),
);
v("waitForClientCampaignStatusTask", "eid '..'", "params.path.eid", () =>
  waitForClientCampaignStatusTask(client, "..", { timeoutMs: 5_000 }),
);
v("waitForClientCampaignStatusTask", "timeoutMs NaN", "timeoutMs", () =>
  waitForClientCampaignStatusTask(client, "e1", { timeoutMs: Number.NaN }),
);
v("waitForClientCampaignStatusTask", "terminalStates a string", "terminalStates", () =>
  waitForClientCampaignStatusTask(client, "e1", { terminalStates: "DONE" as never }),
);
v("watchAdPlatformConnection", "adPlatform %2e%2e", "params.path.adplatform", () =>
  watchAdPlatformConnection(client, { adPlatform: "%2e%2e", timeoutMs: 5_000 }),
);
v("watchAdPlatformConnection", "intervalMs NaN", "intervalMs", () =>
  watchAdPlatformConnection(client, { adPlatform: "meta", intervalMs: Number.NaN }),
);
v("createEventSeries", "eid '.'", "params.path.eid", () => createEventSeries(client, ".", { name: "x" }));
v("listAvailableEventsForSeries", "eid whitespace", "params.path.eid", () => listAvailableEventsForSeries(client, " "));
v("getOptimisationStatus", "which not a toggle", "which", () => getOptimisationStatus(client, "e1", "budget" as never));
v("getOptimisationStatus", "eid 1 MB", "params.path.eid", () => getOptimisationStatus(client, HUGE, "campaign"));
v("setOptimisationStatus", "which not a toggle", "which", () =>
  setOptimisationStatus(client, "e1", undefined as never, { on: true }),
);
v("setOptimisationStatus", "a nested parameter", "query.params.schedule", () =>
  setOptimisationStatus(client, "e1", "ad_campaign", { schedule: { from: 1 } as never }),
);

v("normalizeBenchmark", "NaN", "values.0", () => normalizeBenchmark([Number.NaN]));
v("normalizeBenchmark", "Infinity", "values.1", () => normalizeBenchmark([0.5, Number.POSITIVE_INFINITY]));
v("normalizeBenchmark", "-Infinity", "values.0", () => normalizeBenchmark([Number.NEGATIVE_INFINITY]));
v("normalizeBenchmark", "empty string", "values.0", () => normalizeBenchmark([""]));
v("normalizeBenchmark", "a string instead of an array", "values", () => normalizeBenchmark("85%" as never));
v("normalizeBenchmark", "unit not in the enum", "unit", () => normalizeBenchmark([1], { unit: "permille" as never }));
v("paginate", "limit 0 (would never stop)", "limit", () => drain(paginate({ limit: 0, fetchPage: async () => [1] })));
v("paginate", "limit NaN", "limit", () => drain(paginate({ limit: Number.NaN, fetchPage: async () => [1] })));
v("paginate", "maxItems NaN", "maxItems", () =>
  drain(paginate({ limit: 10, maxItems: Number.NaN, fetchPage: async () => [1] })),
);
v("paginate", "firstPage fraction", "firstPage", () =>
  drain(paginate({ limit: 10, firstPage: 1.5, fetchPage: async () => [1] })),
);
const pollWith = (extra: Record<string, unknown>) => () =>
  poll({ fetchStatus: async () => ({ status: "DONE" }), isDone: () => true, intervalMs: 10, ...extra } as never);
v("poll", "intervalMs NaN", "intervalMs", pollWith({ intervalMs: Number.NaN }));
v("poll", "intervalMs negative", "intervalMs", pollWith({ intervalMs: -1 }));
v("poll", "backoff below 1", "backoff", pollWith({ backoff: 0.5 }));
v("poll", "timeoutMs negative", "timeoutMs", pollWith({ timeoutMs: -1 }));
// Compared, not checked for its type: a timeoutMs of "" ended the poll at once, "5000" was a number.
v("poll", "timeoutMs an empty string", "timeoutMs", pollWith({ timeoutMs: "" }));
v("poll", "maxIntervalMs a numeric string", "maxIntervalMs", pollWith({ maxIntervalMs: "5000" }));
v("poll", "minIntervalMs null", "minIntervalMs", pollWith({ minIntervalMs: null }));
v("poll", "backoff a numeric string", "backoff", pollWith({ backoff: "2" }));
v("poll", "intervalMs a numeric string", "intervalMs", pollWith({ intervalMs: "100" }));
v("poll", "no fetchStatus", "fetchStatus", pollWith({ fetchStatus: undefined }));
v("poll", "isDone not a function", "isDone", pollWith({ isDone: "DONE" }));
// Options that are the helper's whole input: none of them is no input at all.
v("poll", "null for options", "options", () => poll(null as never));
v("poll", "a function for options (the fetch alone)", "options", () => poll((async () => ({})) as never));
v("paginate", "null for options", "options", () => drain(paginate(null as never)));
v("paginate", "a number for options", "options", () => drain(paginate(100 as never)));
v("paginate", "no fetchPage", "fetchPage", () => drain(paginate({ limit: 10 } as never)));
v("paginate", "itemsOf not a function", "itemsOf", () =>
  drain(paginate({ limit: 10, fetchPage: async () => [1], itemsOf: "items" as never })),
);

// The client a helper is given: what createAudienceClient returned, not nothing nor its options.
const notClients: Array<[string, unknown]> = [
  ["null", null],
  ["undefined", undefined],
  ["the client's options", { baseUrl: "https://api.example.test/api/v3" }],
];
for (const [what, bad] of notClients) {
  const c = bad as AudienceClient;
  v("helpers' client", `readPrediction given ${what}`, "client", () => readPrediction(c, "e1", { type: "capacity" }));
  v("helpers' client", `readBenchmark given ${what}`, "client", () => readBenchmark(c, "e1", { type: "capacity" }));
  v("helpers' client", `listEvents given ${what}`, "client", () => drain(listEvents(c)));
  v("helpers' client", `listEventCampaigns given ${what}`, "client", () => drain(listEventCampaigns(c, "e1")));
  v("helpers' client", `createCampaign given ${what}`, "client", () => createCampaign(c, { eid: "e1" } as never));
  v("helpers' client", `createEventSeries given ${what}`, "client", () => createEventSeries(c, "e1", { name: "x" }));
  v("helpers' client", `getOptimisationStatus given ${what}`, "client", () =>
    getOptimisationStatus(c, "e1", "campaign"),
  );
  v("helpers' client", `setOptimisationStatus given ${what}`, "client", () =>
    setOptimisationStatus(c, "e1", "campaign", { on: true }),
  );
  v("helpers' client", `setClientCampaignStatus given ${what}`, "client", () =>
    setClientCampaignStatus(c, "e1", { status: "PAUSED" } as never),
  );
  v("helpers' client", `listAvailableEventsForSeries given ${what}`, "client", () =>
    listAvailableEventsForSeries(c, "e1"),
  );
  v("helpers' client", `waitForClientCampaignStatusTask given ${what}`, "client", () =>
    waitForClientCampaignStatusTask(c, "e1", { timeoutMs: 5_000 }),
  );
  v("helpers' client", `watchAdPlatformConnection given ${what}`, "client", () =>
    watchAdPlatformConnection(c, { adPlatform: "meta", timeoutMs: 5_000 }),
  );
  v("helpers' client", `ingestExcel given ${what}`, "client", () => ingestExcel(c, "e1", XLSX));
  v("helpers' client", `ingestTransactionSummary given ${what}`, "client", () =>
    ingestTransactionSummary(c, SUMMARY as never),
  );
  v("helpers' client", `uploadMedia given ${what}`, "client", () =>
    uploadMedia(c, XLSX, { filename: "a.gif", contentType: "image/gif" }),
  );
  v("helpers' client", `ingestExcelFile given ${what}`, "client", () => ingestExcelFile(c, "e1", "/nonexistent.xlsx"));
  v("helpers' client", `uploadMediaFile given ${what}`, "client", () => uploadMediaFile(c, "/nonexistent.gif"));
}

v("isTerminalStatus", "a string", "terminalStates", () => isTerminalStatus("DONE" as never));
v("isTerminalStatus", "a number inside", "terminalStates", () => isTerminalStatus(["DONE", 5] as never));

// ---- the table -----------------------------------------------------------------------------------
beforeAll(async () => {
  api = await startFakeApi();
  harness.addSecrets(...api.issued);
  client = createClientWithSeams(
    { ...good(), adPlatform: undefined as never, retry: { baseDelayMs: 1, maxDelayMs: 2 } } as AudienceClientOptions,
    { autosaveDebounceMs: 5 },
  );
  unwrap(await client.GET("/events/{eid}", { params: { path: { eid: "warm-up" } } })); // signed in before the table
});

afterAll(async () => {
  harness.addSecrets(...api.issued);
  await api.close();
  const byGroup: Record<string, number> = {};
  for (const r of rows) byGroup[r.group] = (byGroup[r.group] ?? 0) + 1;
  console.log(
    `bad-input table: ${rows.length} inputs ${JSON.stringify(byGroup)}; secret scan ${JSON.stringify(harness.counts())}`,
  );
});

describe("bad input is refused before anything is sent", () => {
  it.each(rows.map((r) => [`${r.group} — ${r.name}`, r] as const))("%s", async (_, row) => {
    const sentBefore = api.requests.length;
    let error: unknown;
    try {
      await row.run();
    } catch (e) {
      error = harness.capture(e);
    }
    if (row.expected.kind === "TypeError") {
      expect(error).toBeInstanceOf(TypeError);
      const option = row.expected.option;
      expect((error as Error).message).toContain(option === "options" ? "options must be" : `"${option}"`);
    } else {
      expect(error, `no error for ${row.name}`).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues.map((i) => i.field)).toContain(row.expected.field);
      expect((error as Error).message.length, "the message never repeats the value").toBeLessThan(2_000);
    }
    expect(api.requests.length - sentBefore, "requests the server saw").toBe(0);
    // The client stays usable.
    expect(unwrap(await client.GET("/events/{eid}", { params: { path: { eid: "good" } } }))).toEqual({ ok: true });
    expect(api.requests.length - sentBefore).toBe(1);
  });

  // Last in the file (tests run in order): everything the table produced.
  it("secret scan: no token or password in any error, support report or log line of the table", () => {
    harness.addSecrets(...api.issued);
    expect(harness.counts().errors).toBe(rows.length);
    expect(harness.leaks()).toEqual([]);
  });
});
