/** Error paths through Prism (`Prefer: code=…`), each mapped to its typed error with the request id. */
import { describe, expect, inject, it } from "vitest";
import {
  type ApiError,
  createAudienceClient,
  NotFoundError,
  PartnerAccessError,
  RateLimitError,
  ServerError,
  unwrap,
} from "../../src/index.ts";

const make = (extra: Record<string, unknown> = {}) =>
  createAudienceClient({
    baseUrl: inject("prismUrl"),
    credentials: { username: "demo", password: "demo-password" },
    retry: { baseDelayMs: 1, maxDelayMs: 2, rateLimitDelayMs: [1, 2] },
    ...extra,
  });

async function failure(promise: Promise<{ response: Response }>): Promise<ApiError> {
  try {
    unwrap(await promise);
  } catch (error) {
    return error as ApiError;
  }
  throw new Error("expected an error");
}

describe("error paths against Prism", () => {
  it("404 on the setup draft read: NotFoundError, and the setup is known to be absent", async () => {
    const client = make();
    const error = await failure(
      client.GET("/setup_processes/{eid}", { params: { path: { eid: "evt-9" } }, headers: { Prefer: "code=404" } }),
    );
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.requestId).toBe("mock-7c1e2a90-request");
    expect(client.setupProcess("evt-9").state).toBe("none");
  });

  it("403 from a wrong partner: PartnerAccessError naming the partner sent", async () => {
    const client = make({ partnerId: "partner-id-wrong" });
    const error = await failure(client.GET("/events/", { headers: { Prefer: "code=403" } }));
    expect(error).toBeInstanceOf(PartnerAccessError);
    expect(error).toMatchObject({ status: 403, partnerId: "partner-id-wrong", requestId: "mock-7c1e2a90-request" });
  });

  it.each([
    [429, RateLimitError],
    [500, ServerError],
    [503, ServerError],
  ])("%i after the retries: its typed error, with the attempts and the request id", async (status, type) => {
    const client = make();
    const error = await failure(
      client.GET("/events/{eid}", { params: { path: { eid: "evt-1001" } }, headers: { Prefer: `code=${status}` } }),
    );
    expect(error).toBeInstanceOf(type);
    expect(error).toMatchObject({ status, attempts: 5, requestId: "mock-7c1e2a90-request" });
    expect(error.supportReport()).toContain(`HTTP ${status}`);
  });
});
