/**
 * The kit's assertions over hand-made logs: each passes a log that keeps its rule and throws an
 * Error naming the rule, the requests and the section for one that breaks it.
 */
import { describe, expect, it } from "vitest";
import {
  expectAttemptsAtMost,
  expectConcurrencyAtMost,
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

describe("expectNoBlindRepeat (Section 3 rule 3)", () => {
  it("a write repeated after a check passes; repeated without one throws, naming both requests", () => {
    const checked = [
      req(0, "POST /campaigns/?eid=e1&name=n 429"),
      req(20, "GET /events/e1/campaigns 200"),
      req(40, "POST /campaigns/?eid=e1&name=n 201"),
    ];
    expectNoBlindRepeat(checked);
    const blind = [
      req(0, "POST /setup_processes/e2 0", { requestId: "a1" }),
      req(20, "POST /setup_processes/e2 201", { requestId: "a2" }),
    ];
    expect(() => expectNoBlindRepeat(blind)).toThrow(
      /Blind repeat.*POST \/setup_processes\/e2 was sent again as a2 after a1 \(connection closed without an answer\).*GET \/setup_processes\/e2.*Section 3 rule 3/,
    );
    // Another event's campaigns are not a check of this write; another campaign is not a repeat.
    expect(() =>
      expectNoBlindRepeat([
        req(0, "POST /campaigns/?eid=e1&name=n 503"),
        req(20, "GET /events/e9/campaigns 200"),
        req(40, "POST /campaigns/?eid=e1&name=n 201"),
      ]),
    ).toThrow(/Blind repeat/);
    expectNoBlindRepeat([req(0, "POST /campaigns/?eid=e1&name=a 201"), req(20, "POST /campaigns/?eid=e1&name=b 201")]);
  });
});

describe("expectConcurrencyAtMost (Section 8.4)", () => {
  it("counts overlap exactly; a slot handed over at the same instant is not two in flight", () => {
    const handover = [req(0, "GET /a", { endedAt: 10 }), req(10, "GET /b", { endedAt: 20 })];
    expectConcurrencyAtMost(handover, 1);
    const three = [
      req(0, "GET /a", { endedAt: 30 }),
      req(5, "GET /b", { endedAt: 30 }),
      req(6, "GET /c", { endedAt: 30 }),
    ];
    expectConcurrencyAtMost(three, 3);
    expect(() => expectConcurrencyAtMost(three, 2)).toThrow(
      /3 requests were in flight at once, more than 2: .*GET \/c.*Section 8\.4/,
    );
    expect(() => expectConcurrencyAtMost([req(0, "GET /a", { endedAt: undefined }), req(100, "GET /b")], 1)).toThrow(
      /2 requests/,
    );
  });
});

describe("expectPartnerHeaderOnEvery (Section 5.5)", () => {
  it("sign-in, refresh and status need none; any other call without it, or with another, throws", () => {
    const log = [
      req(0, "POST /auth", { partner: undefined }),
      req(1, "GET /status/", { partner: undefined }),
      req(2, "GET /events/"),
    ];
    expectPartnerHeaderOnEvery(log, "partner-id-acme");
    expect(() => expectPartnerHeaderOnEvery([...log, req(3, "GET /events/e1", { partner: undefined })])).toThrow(
      /1 of 4 requests came without the partner header: r\d+ GET \/events\/e1 \(no header\).*Section 5\.5/,
    );
    expect(() => expectPartnerHeaderOnEvery(log, "partner-id-other")).toThrow(/"partner-id-acme"/);
  });
});

describe("expectSpacedRetries (Section 8.3)", () => {
  it("a retry waits the backoff base after a 5xx and 5 s after a 429 by default; lower bounds can be given", () => {
    const spaced = [req(0, "GET /e 503", { endedAt: 10 }), req(600, "GET /e 200")];
    expectSpacedRetries(spaced);
    const hasty = [req(0, "GET /e 429", { endedAt: 10, requestId: "x1" }), req(900, "GET /e 200", { requestId: "x2" })];
    expect(() => expectSpacedRetries(hasty)).toThrow(
      /x2 GET \/e was sent 890 ms after x1 \(answered 429\); at least 5000 ms expected.*Section 8\.3/,
    );
    expectSpacedRetries(hasty, { afterRateLimitMs: 800 });
    // A second call of the same read after a success is not a retry.
    expectSpacedRetries([req(0, "GET /e 200"), req(11, "GET /e 200")]);
  });
});

describe("expectAttemptsAtMost (Section 8.2)", () => {
  it("six attempts of one call in a row throw; five pass", () => {
    const attempts = (n: number) =>
      Array.from({ length: n }, (_, i) => req(i * 100, `GET /e ${i === n - 1 ? 200 : 503}`));
    expectAttemptsAtMost(attempts(5));
    expect(() => expectAttemptsAtMost(attempts(6))).toThrow(
      /GET \/e was attempted 6 times in a row.*more than 5.*Section 8\.2/,
    );
  });
});

describe("expectNewestDraftWins (Section 3 autosave)", () => {
  const put = (at: number, budget: number, status: string, endedAt = at + 10) =>
    req(at, `PUT /setup_processes/e1 ${status}`, { body: { total_budget: budget }, endedAt });
  it("passes when the last stored edit is the newest; throws when an older edit lands last or the newest is never stored", () => {
    expectNewestDraftWins([put(0, 1, "200"), put(20, 2, "200")], "e1");
    expect(() => expectNewestDraftWins([put(0, 1, "200", 50), put(20, 2, "200", 30)], "e1")).toThrow(
      /draft of e1 ends as an older edit: r\d+ PUT \/setup_processes\/e1 \{"total_budget":1\} was stored last, but the newest edit was r\d+ \{"total_budget":2\}.*Section 3/,
    );
    // An older edit retried after the newer one was stored: last write loses.
    expect(() => expectNewestDraftWins([put(0, 1, "503"), put(20, 2, "200"), put(40, 1, "200")], "e1")).toThrow(
      /older edit/,
    );
    expect(() => expectNewestDraftWins([put(0, 1, "200"), put(20, 2, "400")], "e1")).toThrow(
      /newest edit|was never|answered 400/,
    );
    expect(() => expectNewestDraftWins([], "e1")).toThrow(/No edit of the draft of e1/);
  });
});
