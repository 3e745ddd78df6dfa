/**
 * The assertions judge each client on its own and catch the bugs they are named for under any
 * order: requests tagged per client (x-mock-tag) are never taken for one another's retries, PUTs
 * of one draft that overlap on the wire fail expectNewestDraftWins whichever lands last, and a
 * partner header the request's token does not belong to fails expectPartnerHeaderOnEvery with no
 * partner given.
 */
import { describe, expect, it } from "vitest";
import {
  expectAttemptsAtMost,
  expectNewestDraftWins,
  expectNoBlindRepeat,
  expectPartnerHeaderOnEvery,
  expectSpacedRetries,
  type RecordedRequest,
} from "../../src/testing/index.ts";

let serial = 0;
function req(at: number, line: string, fields: Partial<RecordedRequest> = {}): RecordedRequest {
  const [method = "GET", target = "/", status = "200"] = line.split(" ");
  const url = new URL(target, "http://x");
  const query: Record<string, string[]> = {};
  for (const [k, v] of url.searchParams) query[k] = [...(query[k] ?? []), v];
  serial += 1;
  return {
    method,
    path: url.pathname,
    query,
    partner: "partner-id-acme",
    bearer: true,
    body: undefined,
    startedAt: at,
    endedAt: at + 10,
    status: Number(status),
    requestId: `r${serial}`,
    ...fields,
  };
}

describe("tags: two processes' identical requests are two clients' calls", () => {
  it("expectSpacedRetries: a tagged client's first request right after another's 5xx is no retry; the same tag is", () => {
    const a = req(0, "GET /events/e1 503", { tag: "job-a", endedAt: 10 });
    expectSpacedRetries([a, req(12, "GET /events/e1 200", { tag: "job-b" })]);
    expect(() => expectSpacedRetries([a, req(12, "GET /events/e1 200", { tag: "job-a", requestId: "y2" })])).toThrow(
      /y2 GET \/events\/e1 was sent 2 ms after/,
    );
  });
  it("expectAttemptsAtMost counts the attempts of one client", () => {
    const log = Array.from({ length: 6 }, (_, i) =>
      req(i * 100, `GET /e ${i === 5 ? 200 : 503}`, { tag: i % 2 === 0 ? "a" : "b" }),
    );
    expectAttemptsAtMost(log);
  });
  it("expectNoBlindRepeat: another client's same write is not a repeat of this one's", () => {
    expectNoBlindRepeat([
      req(0, "POST /setup_processes/e2 0", { tag: "a" }),
      req(20, "POST /setup_processes/e2 201", { tag: "b" }),
    ]);
    expect(() =>
      expectNoBlindRepeat([
        req(0, "POST /setup_processes/e2 0", { tag: "a" }),
        req(20, "POST /setup_processes/e2 201", { tag: "a" }),
      ]),
    ).toThrow(/Blind repeat/);
  });
});

describe("expectNewestDraftWins: the next PUT only after the one in flight", () => {
  const put = (at: number, budget: number, endedAt: number, fields: Partial<RecordedRequest> = {}) =>
    req(at, "PUT /setup_processes/e1 200", { body: { total_budget: budget }, endedAt, ...fields });
  it("PUTs that overlap on the wire fail, though the newest happened to land last", () => {
    expect(() => expectNewestDraftWins([put(0, 1, 30), put(20, 2, 40)], "e1")).toThrow(
      /Edits of the draft of e1 overlapped on the wire: r\d+ PUT \/setup_processes\/e1 \{"total_budget":2\} was sent before r\d+ \{"total_budget":1\} was answered.*Section 3/,
    );
    expectNewestDraftWins([put(0, 1, 10), put(10, 2, 20), put(25, 3, 30)], "e1");
  });
  it("an edit still in flight when the next is sent overlaps too", () => {
    expect(() =>
      expectNewestDraftWins([put(0, 1, 50, { status: undefined, endedAt: undefined }), put(20, 2, 30)], "e1"),
    ).toThrow(/overlapped on the wire/);
  });
  it("another client's PUTs (another tag) do not overlap this one's", () => {
    expectNewestDraftWins([put(0, 1, 30, { tag: "a" }), put(20, 2, 40, { tag: "b" })], "e1");
  });
});

describe("expectPartnerHeaderOnEvery: the partners of the request's token", () => {
  it("with no partner given, a header naming a partner the token does not belong to fails", () => {
    const mine = { tokenPartners: ["partner-id-demo"] };
    expectPartnerHeaderOnEvery([req(0, "GET /events/", { ...mine, partner: "partner-id-demo" })]);
    expect(() =>
      expectPartnerHeaderOnEvery([
        req(0, "GET /events/", { ...mine, partner: "partner-id-demo" }),
        req(1, "GET /events/e1", { ...mine, partner: "partner-id-acme", requestId: "z2" }),
      ]),
    ).toThrow(
      /1 of 2 requests came without the partner header: z2 GET \/events\/e1 \("partner-id-acme"; the token belongs to partner-id-demo\).*Section 5\.5/,
    );
    // A token the mock did not mint (a test's own): its partners are unknown, any header passes.
    expectPartnerHeaderOnEvery([req(0, "GET /events/", { partner: "partner-id-acme" })]);
  });
});
