/**
 * `npm run contract:live` against a local server that drifts from the description (a required
 * field missing, a wrong type, an undocumented status) reports each drift and exits non-zero;
 * against the Prism mock of the description itself it exits 0. Drift is what `onDrift` reports
 * (src/drift/check-drift.ts): one definition for both.
 */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { json, type RecordingServer, startRecordingServer } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

const run = promisify(execFile);
const root = resolve(import.meta.dirname, "..", "..");
const env = { ...process.env, AI_USERNAME: "live-user", AI_PASSWORD: "live-password-secret", AI_AD_PLATFORM: "meta" };

async function contractLive(upstream: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(
      resolve(root, "node_modules/.bin/tsx"),
      ["scripts/contract-live.ts", "--upstream", upstream],
      { cwd: root, env, timeout: 60_000 },
    );
    return { code: 0, out: stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: `${e.stdout}${e.stderr}` };
  }
}

describe("contract:live", () => {
  let drifting: RecordingServer;
  beforeAll(async () => {
    const tokens = makeTokens({ groups: ["partner-id-live"] });
    drifting = await startRecordingServer((req, res) => {
      const id = { "x-request-id": `live-${req.method}-${req.path}` };
      if (req.path === "/auth") return json(res, 200, tokens, id);
      if (req.path === "/events/")
        return json(res, 200, { items: [{ id: "evt-live" }, { name: "an event without its required id" }] }, id);
      if (req.path === "/messages/totalunread") return json(res, 200, { total_unread: "three" }, id);
      if (req.path === "/partners/") return json(res, 418, { teapot: true }, id);
      return json(res, 200, {}, id);
    });
  });
  afterAll(() => drifting.close());

  it("reports each planted drift with its operation and request id, and exits non-zero", async () => {
    const { code, out } = await contractLive(drifting.url);
    expect(code).toBe(1);
    expect(out).toMatch(/GET \/events\/\s+200\s+live-GET-\/events\/\s+body\.items\[1\]\.id: required, missing/);
    expect(out).toMatch(
      /GET \/messages\/totalunread\s+200\s+live-GET-\/messages\/totalunread\s+body\.total_unread: integer expected, string found/,
    );
    expect(out).toMatch(/GET \/partners\/\s+418\s+live-GET-\/partners\/\s+status 418 is not in the description/);
    expect(out).not.toContain("live-password-secret");
  });

  it("exits 0 against the Prism mock of the description itself", async () => {
    const { code, out } = await contractLive(inject("prismUrl"));
    expect(out).toContain("no violations");
    expect(code).toBe(0);
  });
});
