/**
 * Declared fields, one place: a partner declares the response fields they rely on by augmenting
 * `DeclaredFields`, and the helpers' results are typed with them (type-checked by `npm run
 * typecheck`); without a declaration they stay open. `getPartners` returns one shape, a list.
 */
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import {
  type BenchmarkRead,
  createAudienceClient,
  type Declared,
  type Event,
  getPartners,
  type listEventCampaigns,
  type listEvents,
  type Partner,
  type readPrediction,
  type SetupProcess,
} from "../../src/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json } from "../support/recording-server.ts";

// As a partner's app writes it, with the package's name (here the module of the same entry).
declare module "../../src/index.ts" {
  interface DeclaredFields {
    event: { name: string };
    prediction: { expected_sales: number };
    campaign: { campaign_id: string; status: "ACTIVE" | "PAUSED" };
    partner: { name: string };
    setup: { goal: string; total_budget: number };
  }
}

let api: FakeApi;
afterEach(() => api?.close());

describe("declared fields", () => {
  it("type the results the specification leaves open, without casts", () => {
    expectTypeOf<Event["name"]>().toEqualTypeOf<string>();
    expectTypeOf<Event["id"]>().toEqualTypeOf<string>();
    expectTypeOf<Declared<"event">>().toEqualTypeOf<{ name: string }>();
    expectTypeOf<Partner["name"]>().toEqualTypeOf<string>();
    expectTypeOf<ReturnType<typeof getPartners>>().resolves.toEqualTypeOf<Partner[]>();
    expectTypeOf<ReturnType<typeof listEvents>>().toEqualTypeOf<AsyncIterableIterator<Event>>();
    expectTypeOf<ReturnType<typeof listEventCampaigns>>().toEqualTypeOf<
      AsyncIterableIterator<{ campaign_id: string; status: "ACTIVE" | "PAUSED" }>
    >();
    expectTypeOf<Awaited<ReturnType<typeof readPrediction>>>().toEqualTypeOf<
      BenchmarkRead<{ expected_sales: number }>
    >();
    expectTypeOf<ReturnType<SetupProcess["update"]>>().resolves.toEqualTypeOf<{ goal: string; total_budget: number }>();
    expectTypeOf<ReturnType<SetupProcess["load"]>>().resolves.toEqualTypeOf<
      { goal: string; total_budget: number } | undefined
    >();
    // a key not declared stays open
    expectTypeOf<Declared<"benchmark">>().toEqualTypeOf<unknown>();
  });

  it("getPartners returns a list whether the API answers one record or a list", async () => {
    api = await startFakeApi();
    const client = createAudienceClient({
      baseUrl: api.url,
      session: { accessToken: "t" },
      partnerId: "partner-id-acme",
    });
    api.route((_req, res) => json(res, 200, { id: 7, name: "Acme" }));
    expect(await getPartners(client)).toEqual([{ id: 7, name: "Acme" }]);
    api.route((_req, res) =>
      json(res, 200, [
        { id: 7, name: "Acme" },
        { id: 8, name: "Beta" },
      ]),
    );
    expect((await getPartners(client)).map((p) => p.name)).toEqual(["Acme", "Beta"]);
  });
});
