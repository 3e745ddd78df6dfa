/**
 * A path id given as a number is the id its text is: openapi-fetch sends `eid: 123` as `123`, so
 * the client's memory of a setup (its guards, Section 3), of the status PUTs it sent (Section 8.5)
 * and its setup handles must hold `123` and `"123"` as one. Before, a number skipped the setup
 * guards (a published setup's draft was PUT, and the API refused it after it went out), a status
 * PUT with a number left no trace for the task poll, and `setupProcess(123)` made a second handle,
 * with its own queue, for the same setup.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createClientWithSeams } from "../../src/create-client.ts";
import { SetupStateError } from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { routeSetupApi, SETUP_DRAFT } from "../support/fake-setup-api.ts";

let api: FakeApi;
afterEach(() => api?.close());
const credentials = { username: "u", password: "pw-numeric-ids" };
const draft = SETUP_DRAFT;
const make = () =>
  createClientWithSeams(
    { baseUrl: api.url, credentials, adPlatform: "meta", retry: { baseDelayMs: 1, maxDelayMs: 2 } },
    { autosaveDebounceMs: 10 },
  );
const byNumber = (eid: number) => ({ params: { path: { eid: eid as unknown as string } } });

describe("a path id given as a number is the id its text is", () => {
  it("a setup published by its text refuses a draft PUT by its number: nothing sent", async () => {
    api = await startFakeApi();
    routeSetupApi(api);
    const client = make();
    const setup = client.setupProcess("123");
    await setup.create(draft);
    await setup.publish();
    const sent = api.calls().length;
    const error = await client
      .PUT("/setup_processes/{eid}", { ...byNumber(123), body: draft })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SetupStateError);
    expect(api.calls().length).toBe(sent);
  });

  it("a draft created by its number is known to the handle of its text", async () => {
    api = await startFakeApi();
    routeSetupApi(api);
    const client = make();
    await client.POST("/setup_processes/{eid}", { ...byNumber(456), body: draft });
    expect(client.setupProcess("456").state).toBe("draft");
  });

  it("setupProcess(789) is the handle of setupProcess('789')", async () => {
    api = await startFakeApi();
    const client = make();
    expect(client.setupProcess(789 as unknown as string)).toBe(client.setupProcess("789"));
  });

  it("a status PUT sent by its number is known by its text", async () => {
    api = await startFakeApi();
    const client = make();
    await client.PUT("/events/{eid}/client_campaign_status", byNumber(5) as never);
    expect(client.hasSentClientCampaignStatus("5")).toBe(true);
  });

  it("…and a status PUT sent by its text is known by its number (the task poll asks so)", async () => {
    api = await startFakeApi();
    const client = make();
    await client.PUT("/events/{eid}/client_campaign_status", { params: { path: { eid: "6" } } } as never);
    expect(client.hasSentClientCampaignStatus(6 as unknown as string)).toBe(true);
  });
});
