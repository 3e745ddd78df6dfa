/**
 * Drift of a 2xx media type is drift (Section 9.2: the description drifts from the service). A
 * described JSON operation answered with another media type cannot be parsed: the attempt fails and
 * is retried, the call ends as a NetworkError — and the first such response is reported to
 * `onDrift` as other drift is, whatever the call's outcome. The family: another media type (HTML,
 * XML, plain text, on 200 and 201), no content type at all, a 204 where the description has 200.
 * Sampling is off (`driftSampleRate: 0`) so only the always-checked first response counts.
 */
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createAudienceClient, type DriftReport, NetworkError } from "../../src/index.ts";
import { type RecordingServer, startRecordingServer } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

let server: RecordingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function settle(reports: readonly unknown[], n: number): Promise<void> {
  for (let waited = 0; reports.length < n && waited < 5000; waited += 10) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 50));
}

function answer(status: number, type: string | undefined, body: string) {
  let n = 0;
  return (_req: unknown, res: ServerResponse): void => {
    n += 1;
    res.writeHead(status, { ...(type ? { "content-type": type } : {}), "x-request-id": `req-${n}` });
    res.end(body);
  };
}

function client(reports: DriftReport[]) {
  const t = makeTokens();
  return createAudienceClient({
    baseUrl: (server as RecordingServer).url,
    session: { accessToken: t.AccessToken, idToken: t.IdToken },
    onDrift: (r) => reports.push(r),
    driftSampleRate: 0,
    retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
  });
}

const JSON_TYPE = "the description has application/json";

describe("a 2xx of another media type is reported, though the call fails", () => {
  it.each([
    ["text/html", "<html>maintenance</html>"],
    ["text/html; charset=utf-8", '{"id":"e1"}'],
    ["application/xml", "<event/>"],
    ["text/plain", "ok"],
  ])("200 %s on GET /events/{eid}: one report for many answers, the call a NetworkError", async (type, body) => {
    server = await startRecordingServer(answer(200, type, body));
    const reports: DriftReport[] = [];
    const c = client(reports);
    for (let i = 0; i < 4; i++) {
      const error = await c.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
    }
    expect(server.requests).toHaveLength(12); // 4 calls × 3 attempts
    await settle(reports, 1);
    expect(reports).toEqual([
      {
        operation: "GET /events/{eid}",
        status: 200,
        requestId: "req-1",
        problems: [`content type ${type.split(";")[0]}, ${JSON_TYPE}`],
      },
    ]);
  });

  it("201 text/html on a write described as 201 JSON is reported", async () => {
    server = await startRecordingServer(answer(201, "text/html", "<p>created</p>"));
    const reports: DriftReport[] = [];
    await client(reports)
      .POST("/setup_processes/{eid}/boost", { params: { path: { eid: "e1" } } })
      .catch(() => undefined);
    await settle(reports, 1);
    expect(reports).toEqual([
      expect.objectContaining({ status: 201, problems: [`content type text/html, ${JSON_TYPE}`] }),
    ]);
  });

  it("a 200 of another media type after good 200s is still reported: the first of its kind", async () => {
    let html = false;
    server = await startRecordingServer((_req, res) => {
      res.writeHead(200, { "content-type": html ? "text/html" : "application/json" });
      res.end(html ? "<html/>" : '{"id":"e1"}');
    });
    const reports: DriftReport[] = [];
    const c = client(reports);
    for (let i = 0; i < 3; i++) await c.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    html = true;
    await c.GET("/events/{eid}", { params: { path: { eid: "e1" } } }).catch(() => undefined);
    await settle(reports, 1);
    expect(reports.map((r) => r.problems)).toEqual([[`content type text/html, ${JSON_TYPE}`]]);
  });
});

describe("no content type, and a 204, are drift too", () => {
  it("200 without a content type, a JSON body: the data as sent, and one report", async () => {
    server = await startRecordingServer(answer(200, undefined, '{"id":"e1"}'));
    const reports: DriftReport[] = [];
    const c = client(reports);
    const { data } = await c.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    expect(data).toEqual({ id: "e1" });
    await c.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    await settle(reports, 1);
    expect(reports.map((r) => r.problems)).toEqual([[`no content type, ${JSON_TYPE}`]]);
  });

  it("200 without a content type, a body that is not JSON: a NetworkError, and one report", async () => {
    server = await startRecordingServer(answer(200, undefined, "<html/>"));
    const reports: DriftReport[] = [];
    const error = await client(reports)
      .GET("/events/{eid}", { params: { path: { eid: "e1" } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    await settle(reports, 1);
    expect(reports.map((r) => r.problems)).toEqual([[`no content type, ${JSON_TYPE}`]]);
  });

  it("204 with a content type and a body where the description has 200: reported, the call's result unchanged", async () => {
    server = await startRecordingServer(answer(204, "application/json", '{"id":"e1"}'));
    const reports: DriftReport[] = [];
    const { data, error, response } = await client(reports).GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    expect(response.status).toBe(204);
    expect(data).toBeUndefined();
    expect(error).toBeUndefined();
    await settle(reports, 1);
    expect(reports).toHaveLength(1);
    expect(reports[0]?.problems[0]).toMatch(/^status 204 is not in the description/);
  });
});
