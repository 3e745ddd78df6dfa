/**
 * The group's shared session (session/shared-session.ts, loaded by the session cache on first use)
 * that cannot be loaded while the cache itself loads: the process signs in and renews on its own
 * (Section 5.8: a cache, never a single point of failure), every call succeeds, and the failure is
 * reported by its kind only.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAudienceClient } from "../../src/index.ts";
import { fileCoordinator } from "../../src/node/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json } from "../support/recording-server.ts";

vi.mock("../../src/session/shared-session.ts", () => {
  throw new Error("chunk not served");
});

let api: FakeApi | undefined;
let dir: string | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

const credentials = { username: "ops@acme.test", password: "pw-shared-unloadable" };

describe("a shared session that cannot be loaded", () => {
  it("signs in alone once, renews alone after a 401, and every call succeeds", async () => {
    api = await startFakeApi();
    let calls = 0;
    api.route((_req, res) => (++calls === 3 ? json(res, 401, { message: "token revoked" }) : json(res, 200, {})));
    dir = await mkdtemp(join(tmpdir(), "shared-unloadable-"));
    const lines: string[] = [];
    const client = createAudienceClient({
      baseUrl: api.url,
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
      credentials,
      logger: { warn: (message, meta) => lines.push(`${message} ${JSON.stringify(meta ?? {})}`) },
      coordinator: fileCoordinator({ directory: dir }),
    });
    const get = () => client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    for (const r of await Promise.all([get(), get()])) expect(r.response.status).toBe(200);
    expect((await get()).response.status).toBe(200);
    expect(api.signIns()).toBe(1);
    expect(api.refreshes()).toBe(1);
    expect(lines.join("\n")).toMatch(/shared session could not be loaded/);
    for (const secret of [credentials.password, ...api.issued]) expect(lines.join("\n")).not.toContain(secret);
  });
});
