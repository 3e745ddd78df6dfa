/** A first contract test: raw openapi-fetch, typed by generated/schema.ts, against Prism. */
import createClient from "openapi-fetch";
import { describe, expect, inject, it } from "vitest";
import type { paths } from "../../generated/schema.ts";

describe("Prism mock of the merged description", () => {
  it("signs in and reads one event", async () => {
    const api = createClient<paths>({ baseUrl: inject("prismUrl") });
    const signIn = await api.POST("/auth", { body: { username: "demo", password: "demo-password" } });
    expect(signIn.response.status).toBe(200);
    const access = signIn.data?.AccessToken ?? "";
    const claims = JSON.parse(Buffer.from(access.split(".")[1] ?? "", "base64url").toString()) as { exp: number };
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000);
    const idClaims = JSON.parse(
      Buffer.from((signIn.data?.IdToken ?? "").split(".")[1] ?? "", "base64url").toString(),
    ) as { groups: string[] };
    expect(idClaims.groups.filter((g) => /^partner-id-[a-z0-9-]+$/.test(g))).toHaveLength(1);

    const event = await api.GET("/events/{eid}", {
      params: { path: { eid: "evt-1001" }, header: { "X-Preferred-Partner-Id": "partner-id-demo-tickets" } },
      headers: { Authorization: `Bearer ${access}` },
    });
    expect(event.response.status).toBe(200);
    expect(event.response.headers.get("sl-violations")).toBeNull();
    expect(event.response.headers.get("x-request-id")).toBeTruthy();
    expect(event.data?.id).toBe("evt-1001");
  });
});
