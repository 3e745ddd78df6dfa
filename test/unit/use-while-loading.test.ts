/**
 * `client.use` on a client whose engine has not loaded yet (lazy-engine.ts: a browser app's first
 * moments). A middleware that is not one is refused at once, as a loaded client refuses it, and a
 * middleware given after it is kept: the refusal used to come only when the engine was built,
 * where it was swallowed and took the middleware queued after it with it. The engine's load is
 * held by a gate the test opens.
 */
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type * as Client from "../../src/index.ts";
import { json, type RecordingServer, startRecordingServer } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

const gate = vi.hoisted(() => {
  let open = (): void => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open: () => open() };
});
vi.mock("../../src/engine.ts", async (importOriginal) => {
  await gate.opened;
  return importOriginal();
});

let server: RecordingServer;
let client: typeof Client;
beforeAll(async () => {
  server = await startRecordingServer((_req, res) => json(res, 200, { ok: true }));
  client = await import("../../src/index.ts");
});
afterAll(() => server.close());

it("a bad middleware throws at once while the engine loads; the ones around it are kept, in order", async () => {
  const t = makeTokens();
  const c = client.createAudienceClient({
    baseUrl: server.url,
    session: { accessToken: t.AccessToken, idToken: t.IdToken },
  });
  const seen: string[] = [];
  const named = (name: string) => ({
    onRequest: () => {
      seen.push(name);
      return undefined;
    },
  });
  c.use(named("first"));
  expect(() => c.use(5 as never)).toThrow(client.ValidationError);
  expect(() => c.use(named("skipped with the bad one"), {} as never)).toThrow(/middleware: must be an object/);
  c.use(named("second"));
  const call = c.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
  gate.open();
  expect((await call).response.status).toBe(200);
  expect(seen).toEqual(["first", "second"]);
});
