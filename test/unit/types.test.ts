/**
 * Type-level checks (compiled by `npm run typecheck`): the generated zod schemas agree with the
 * generated types, and raw calls need neither the partner header nor an `adplatform` the client fills.
 */
import { describe, expectTypeOf, it } from "vitest";
import type * as z from "zod/mini";
import type { components } from "../../generated/schema.ts";
import type { EditPublishedClusterPayload, SetupPayload, TransactionSummary } from "../../generated/validators.ts";
import {
  type ApiError,
  type AudienceClient,
  type AudienceClientOptions,
  type AudienceError,
  type AuthenticationError,
  type BadRequestError,
  type ConflictError,
  createAudienceClient,
  type DriftReport,
  isAudienceError,
  type ListOptions,
  listEvents,
  type NetworkError,
  type PollOptions,
  type RateLimitError,
  type RateState,
  type SetupStateError,
  type UnprocessableEntityError,
  type ValidationError,
} from "../../src/index.ts";

type Schemas = components["schemas"];
/** The declared fields of an object type, without index signatures. */
type Known<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

describe("types", () => {
  it("validators and generated types describe the same payloads", () => {
    // The zod objects are loose and add an index signature; the declared fields must be identical.
    expectTypeOf<Known<z.output<typeof SetupPayload>>>().toEqualTypeOf<Known<Schemas["SetupPayload"]>>();
    expectTypeOf<Known<z.output<typeof EditPublishedClusterPayload>>>().toEqualTypeOf<
      Known<Schemas["EditPublishedClusterPayload"]>
    >();
    expectTypeOf<Known<z.output<typeof TransactionSummary>>>().toEqualTypeOf<Known<Schemas["TransactionSummary"]>>();
    // and a change of a field's type would break that:
    expectTypeOf<Known<Omit<Schemas["SetupPayload"], "total_budget"> & { total_budget?: string }>>().not.toEqualTypeOf<
      Known<z.output<typeof SetupPayload>>
    >();
  });

  it("raw calls omit the partner header and make adplatform optional", () => {
    const client = createAudienceClient({
      baseUrl: "https://api.example.test/api/v3",
      session: { accessToken: "t-types" },
      partnerId: "partner-id-x",
    });
    expectTypeOf(client).toEqualTypeOf<AudienceClient>();
    // The published signature has no test seam, and the client no addHooks.
    expectTypeOf(createAudienceClient).parameters.toEqualTypeOf<[AudienceClientOptions]>();
    expectTypeOf<"addHooks" extends keyof AudienceClient ? true : false>().toEqualTypeOf<false>();
    // Compiles without params.header and without params.path.adplatform:
    const ok = () => client.GET("/integrations/connect/{adplatform}/status");
    const withEid = () =>
      client.GET("/integrations/{adplatform}/events/{eid}/campaign_results", { params: { path: { eid: "e1" } } });
    // @ts-expect-error eid is still required
    const missingEid = () => client.GET("/events/{eid}", { params: { path: {} } });
    // @ts-expect-error the prediction type is required by the description
    const missingType = () => client.GET("/events/{eid}/lookout_prediction", { params: { path: { eid: "e1" } } });
    expectTypeOf(ok).toBeFunction();
    expectTypeOf(withEid).toBeFunction();
    expectTypeOf(missingEid).toBeFunction();
    expectTypeOf(missingType).toBeFunction();
  });

  it("data is typed from the description", () => {
    type Unread = Awaited<ReturnType<AudienceClient["GET"]>>;
    expectTypeOf<Unread>().toHaveProperty("response");
    expectTypeOf<Schemas["TotalUnread"]["total_unread"]>().toEqualTypeOf<number>();
  });

  it("the operations contract: rate state, drift reports, deadlines, lanes", () => {
    expectTypeOf<ReturnType<AudienceClient["rateState"]>>().toEqualTypeOf<RateState>();
    expectTypeOf<RateState["queued"]>().toEqualTypeOf<{ readonly interactive: number; readonly background: number }>();
    expectTypeOf<RateState["pace"]>().toEqualTypeOf<number | null>();
    expectTypeOf<RateState["coolDownUntil"]>().toEqualTypeOf<number | null>();
    expectTypeOf<RateLimitError["rateState"]>().toEqualTypeOf<RateState | undefined>();
    expectTypeOf<AudienceError["retryAt"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<DriftReport>().toEqualTypeOf<{
      readonly operation: string;
      readonly status: number;
      readonly requestId: string | undefined;
      readonly problems: readonly string[];
    }>();
    expectTypeOf<NonNullable<AudienceClientOptions["onDrift"]>>().parameter(0).toEqualTypeOf<DriftReport>();
    expectTypeOf<NonNullable<AudienceClientOptions["onRateStateChange"]>>().parameter(0).toEqualTypeOf<RateState>();
    expectTypeOf<ListOptions["deadlineMs"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<PollOptions<unknown>["deadlineMs"]>().toEqualTypeOf<number | undefined>();
    const client = createAudienceClient({ baseUrl: "https://api.example.test/api/v3", session: { accessToken: "t" } });
    // priority is the Fetch standard's RequestInit field, on a call and on a list helper:
    const low = () => client.GET("/events/{eid}", { params: { path: { eid: "e1" } }, priority: "low" });
    const page = () => listEvents(client, { priority: "low", deadlineMs: 5_000 });
    // @ts-expect-error a lane is a Fetch priority, not a number
    const wrong = () => listEvents(client, { priority: 1 });
    expectTypeOf(low).toBeFunction();
    expectTypeOf(page).toBeFunction();
    expectTypeOf(wrong).toBeFunction();
  });

  it("error names are literal types, and isAudienceError narrows to the concrete classes", () => {
    expectTypeOf<RateLimitError["name"]>().toEqualTypeOf<"RateLimitError">();
    expectTypeOf<ValidationError["name"]>().toEqualTypeOf<"ValidationError">();
    expectTypeOf<BadRequestError["name"]>().toEqualTypeOf<"BadRequestError">();
    expectTypeOf<ConflictError["name"]>().toEqualTypeOf<"ConflictError">();
    expectTypeOf<UnprocessableEntityError["name"]>().toEqualTypeOf<"UnprocessableEntityError">();
    expectTypeOf<AuthenticationError["name"]>().toEqualTypeOf<"AuthenticationError">();
    // the new classes are ApiErrors, and the setup error keeps the server's answer when there was one
    expectTypeOf<ConflictError>().toMatchTypeOf<ApiError>();
    expectTypeOf<SetupStateError["code"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<SetupStateError["status"]>().toEqualTypeOf<number | undefined>();
    const describe = (error: unknown): string => {
      if (!isAudienceError(error)) return "not ours";
      switch (error.name) {
        case "RateLimitError":
          expectTypeOf(error).toEqualTypeOf<RateLimitError>();
          return `retry in ${error.retryAfterMs ?? 0} ms`;
        case "ValidationError":
          return error.issues.map((i) => i.field).join();
        case "SetupStateError":
          return `${error.eid} ${error.state} ${error.code ?? ""}`;
        case "ConflictError":
          return `${error.status} ${error.code ?? ""}`;
        case "ApiError":
          return `${error.status}`;
        case "NetworkError":
          expectTypeOf(error).toMatchTypeOf<NetworkError>();
          return error.message;
        default:
          return error.supportReport();
      }
    };
    expectTypeOf(describe).toBeFunction();
    // every name is one of the client's, and each maps to one class
    const names = (error: AudienceError) => error.name;
    expectTypeOf(names).returns.toEqualTypeOf<
      | "AudienceError"
      | "ApiError"
      | "AuthenticationError"
      | "PartnerAccessError"
      | "NotFoundError"
      | "RateLimitError"
      | "ServerError"
      | "BadRequestError"
      | "ConflictError"
      | "UnprocessableEntityError"
      | "NetworkError"
      | "TimeoutError"
      | "ResponseTooLargeError"
      | "PartnerSelectionError"
      | "SessionError"
      | "SetupStateError"
      | "ValidationError"
    >();
  });
});
