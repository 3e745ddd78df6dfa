/**
 * A token received since a call began serves that call whatever its refresh margin (one refresh per
 * call at most), but not once it has expired: a call that waited longer than the token lives (a
 * 429's wait, a queue) must not send it (found by the cluster bench with 4 s tokens: 401s and
 * failed calls).
 */
import { afterEach, expect, it } from "vitest";
import { createAudienceClient } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json } from "../support/recording-server.ts";

let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

function expOf(token: string): number {
  const claims = JSON.parse(Buffer.from(token.split(".")[1] as string, "base64url").toString()) as { exp: number };
  return claims.exp * 1000;
}

it("a call that waited past its fresh token's expiry renews it instead of sending it", async () => {
  api = await startFakeApi({ expSeconds: () => Math.floor(Date.now() / 1000) + 2 });
  const server = api;
  let first = true;
  const sentExpired: number[] = [];
  server.route((req, res) => {
    const token = String(req.headers.authorization ?? "").replace(/^Bearer /, "");
    if (expOf(token) <= Date.now()) {
      sentExpired.push(Date.now());
      return json(res, 401, { message: "expired" });
    }
    if (first) {
      first = false;
      return json(res, 429, {}, { "retry-after": "3" });
    }
    json(res, 200, { eid: "e1" });
  });
  const client = createAudienceClient({
    baseUrl: server.url,
    credentials: { username: "u@example.test", password: "pw-fresh-token" },
  });
  const { response } = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
  expect(response.status).toBe(200);
  expect(sentExpired).toEqual([]);
  expect(server.signIns() + server.refreshes()).toBe(2);
}, 15_000);
