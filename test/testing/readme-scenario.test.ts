// campaigns.test.ts: your code on one of the API's bad days (README, "Testing your code").
import { createAudienceClient, createCampaign, NetworkError } from "@audience-intelligence/client";
import { expectNoBlindRepeat, startMockApi } from "@audience-intelligence/client/testing";
import { expect, it } from "vitest";

it("a campaign whose answer was lost is not created twice", async () => {
  const api = await startMockApi({ scenario: "reset-after-write", seed: 1 });
  try {
    const client = createAudienceClient({ baseUrl: api.baseUrl, credentials: api.credentials });
    await expect(createCampaign(client, { eid: "evt-1", name: "Spring" })).rejects.toBeInstanceOf(NetworkError);
    expectNoBlindRepeat(api.requests()); // throws, naming the requests, if the POST went out twice
  } finally {
    await api.close();
  }
}, 60_000);
