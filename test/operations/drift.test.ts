/**
 * `onDrift` reports what responses of described operations show that the
 * description does not say — against a real local server that drifts — redacted, sampled, never
 * throwing into a call and never changing its result.
 */
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createAudienceClient, type DriftReport } from "../../src/index.ts";
import { json, type RecordingServer, startRecordingServer } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

let server: RecordingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const password = 'p"w\\é-drift-secret';
/** The check runs in the background, its module loaded on first use: wait for `n` reports, then a little more. */
async function settle(reports: readonly unknown[] = [], n = 0): Promise<void> {
  for (let waited = 0; reports.length < n && waited < 5000; waited += 10) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 50));
}

function drifting(tokens = makeTokens({ groups: ["partner-id-drift"] })) {
  const bodies: Record<string, [number, unknown]> = {
    // RefreshToken missing, IdToken a number (the client is given partnerId)
    "/auth": [200, { AccessToken: tokens.AccessToken, IdToken: 42 }],
    "/events/": [200, { items: [{ id: "e1" }, { name: "no id" }] }],
    "/messages/totalunread": [200, { total_unread: "three" }],
    "/partners/": [418, { teapot: true }],
  };
  return (req: { path: string }, res: ServerResponse): void => {
    const id = { "x-request-id": `drift-${req.path}` };
    if (req.path === "/profile/") {
      res.writeHead(200, { "content-type": "text/html", ...id });
      res.end("<html></html>");
      return;
    }
    const [status, body] = bodies[req.path] ?? [200, { total_unread: 3 }];
    json(res, status, body, id);
  };
}

describe("onDrift", () => {
  it("reports each kind of drift with the operation, status and request id; the results are unchanged", async () => {
    server = await startRecordingServer(drifting());
    const reports: DriftReport[] = [];
    const client = createAudienceClient({
      baseUrl: server.url,
      credentials: { username: "drift@example.com", password },
      partnerId: "partner-id-drift",
      onDrift: (r) => reports.push(r),
    });
    const events = await client.GET("/events/", { params: { query: { page: 1, limit: 10 } } });
    expect(events.data).toEqual({ items: [{ id: "e1" }, { name: "no id" }] }); // the result as the API sent it
    const unread = await client.GET("/messages/totalunread");
    expect(unread.data).toEqual({ total_unread: "three" });
    const partners = await client.GET("/partners/");
    expect(partners.response.status).toBe(418);
    await client.GET("/messages/totalunread"); // same operation and status: sampled out at 1 %
    await settle(reports, 4);
    const by = new Map(reports.map((r) => [r.operation, r]));
    expect(by.get("POST /auth")).toMatchObject({
      status: 200,
      requestId: "drift-/auth",
      problems: ["body.RefreshToken: required, missing", "body.IdToken: string expected, integer found"],
    });
    expect(by.get("GET /events/")).toEqual({
      operation: "GET /events/",
      status: 200,
      requestId: "drift-/events/",
      problems: ["body.items[1].id: required, missing"],
    });
    expect(by.get("GET /messages/totalunread")?.problems).toEqual([
      "body.total_unread: integer expected, string found",
    ]);
    expect(by.get("GET /partners/")?.problems[0]).toMatch(/^status 418 is not in the description \(it declares 200, /);
    expect(reports.filter((r) => r.operation === "GET /messages/totalunread")).toHaveLength(1);
  });

  it("reports another media type", async () => {
    server = await startRecordingServer(drifting());
    const reports: DriftReport[] = [];
    const t = makeTokens();
    const client = createAudienceClient({
      baseUrl: server.url,
      session: { accessToken: t.AccessToken, idToken: t.IdToken },
      onDrift: (r) => reports.push(r),
    });
    await client.GET("/profile/", { parseAs: "text" });
    await settle(reports, 1);
    expect(reports).toEqual([
      expect.objectContaining({
        operation: "GET /profile/",
        problems: ["content type text/html, the description has application/json"],
      }),
    ]);
  });

  it("a response that agrees is not reported; driftSampleRate 1 checks every response", async () => {
    server = await startRecordingServer(drifting());
    const reports: DriftReport[] = [];
    const t = makeTokens();
    const client = createAudienceClient({
      baseUrl: server.url,
      session: { accessToken: t.AccessToken, idToken: t.IdToken },
      onDrift: (r) => reports.push(r),
      driftSampleRate: 1,
    });
    for (let i = 0; i < 3; i++) await client.GET("/messages/totalunread");
    await client.GET("/notifications/stats"); // answered {total_unread: 3}: nothing the description contradicts
    await settle(reports, 3);
    expect(reports.map((r) => r.operation)).toEqual(Array(3).fill("GET /messages/totalunread"));
  });

  it("a throwing onDrift never reaches the call; the report is redacted", async () => {
    const t = makeTokens();
    server = await startRecordingServer((_req, res) =>
      json(res, 200, { total_unread: "x" }, { "x-request-id": `leak-${t.AccessToken}` }),
    );
    const reports: DriftReport[] = [];
    const warnings: string[] = [];
    const client = createAudienceClient({
      baseUrl: server.url,
      session: { accessToken: t.AccessToken, idToken: t.IdToken },
      logger: { warn: (m: string) => warnings.push(m) },
      onDrift: (r) => {
        reports.push(r);
        throw new Error("observer bug");
      },
    });
    const { data, error } = await client.GET("/messages/totalunread");
    expect(error).toBeUndefined();
    expect(data).toEqual({ total_unread: "x" });
    await settle(reports, 1);
    expect(reports).toHaveLength(1);
    expect(JSON.stringify(reports)).not.toContain(t.AccessToken);
    expect(warnings).toContain("onDrift threw; ignored");
  });

  it("bad options are refused by name", () => {
    const base = { baseUrl: "http://127.0.0.1:9/api/v3", credentials: { username: "u", password: "pw-123" } };
    expect(() => createAudienceClient({ ...base, onDrift: 1 as never })).toThrow(/"onDrift" must be a function/);
    expect(() => createAudienceClient({ ...base, onDrift: () => {}, driftSampleRate: 2 })).toThrow(
      /"driftSampleRate" must be a number from 0 to 1/,
    );
  });
});
