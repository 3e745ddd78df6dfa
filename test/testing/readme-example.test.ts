// events.test.ts: your code against a local mock of the API (README, "Testing your code").
import { createAudienceClient, listEvents, unwrap } from "@audience-intelligence/client";
import { type MockApi, startMockApi } from "@audience-intelligence/client/testing";
import { afterAll, beforeAll, expect, it } from "vitest";

let api: MockApi;
beforeAll(async () => {
  api = await startMockApi(); // Prism on a free 127.0.0.1 port, answering with the description's examples
}, 60_000);
afterAll(() => api.close());

const client = () =>
  createAudienceClient({
    baseUrl: api.baseUrl,
    mediaUrl: api.mediaUrl,
    session: { accessToken: "test-token" }, // any bearer token is accepted
    partnerId: "partner-id-test",
  });

it("reads an event", async () => {
  const event = unwrap(await client().GET("/events/{eid}", { params: { path: { eid: "evt-1001" } } }));
  expect(event.id).toBe("evt-1001");
});

it("lists events page by page", async () => {
  const ids: string[] = [];
  for await (const event of listEvents(client(), { maxItems: 3 })) ids.push(event.id);
  expect(ids.length).toBeGreaterThan(0);
});
