/**
 * The retry decision as a table: policy × status or failure ×
 * Retry-After × attempt × deadline → answer, check the write, give up (ambiguous or not, with the
 * wait the deadline cut short) or retry after a wait. Pure: the same row always decides the same.
 */
import { describe, expect, it } from "vitest";
import { normalizeOptions } from "../../src/options.ts";
import { decideRetry, type RetryDecision, type RetryInput } from "../../src/transport/retry-decision.ts";

const { retry } = normalizeOptions({
  baseUrl: "https://api.example.test/api/v3",
  credentials: { username: "u", password: "p-table" },
});
const half = () => 0.5;
const sent = { retryable: true, sent: true };
const unsent = { retryable: true, sent: false };
const final = { retryable: false, sent: true };
const finalUnsent = { retryable: false, sent: false };

type Row = [string, Partial<RetryInput>, RetryDecision];
const answer: RetryDecision = { kind: "answer" };
const check: RetryDecision = { kind: "check-write" };
const giveUp = (ambiguousWrite: boolean, retryInMs?: number): RetryDecision =>
  retryInMs === undefined ? { kind: "give-up", ambiguousWrite } : { kind: "give-up", ambiguousWrite, retryInMs };
const wait = (waitMs: number): RetryDecision => ({ kind: "retry", waitMs });
// Backoff with a draw of 0.5: d·(1 − 0.5·0.3) = 0.85·d, d = 500·2^(k−1); a 429: 5 000 + 0.5·5 000.
const backoff = (k: number) => Math.min(30_000, 500 * 2 ** (k - 1)) * 0.85;

const rows: Row[] = [
  // Statuses that are answers, whatever the policy.
  ...[200, 201, 204, 301, 400, 401, 403, 404, 409, 418, 501, 505].flatMap((status): Row[] =>
    (["repeatable", "check-first", "never"] as const).map((policy) => [
      `${status} ${policy}`,
      { status, policy },
      answer,
    ]),
  ),
  // Retryable statuses on a repeatable operation.
  ["500 repeatable", { status: 500 }, wait(backoff(1))],
  ["502 repeatable, attempt 2", { status: 502, attempt: 2 }, wait(backoff(2))],
  ["503 repeatable, attempt 4", { status: 503, attempt: 4 }, wait(backoff(4))],
  ["504 repeatable, attempt 5: no 6th", { status: 504, attempt: 5 }, giveUp(false)],
  ["429 without Retry-After: 5–10 s", { status: 429 }, wait(7_500)],
  ["429 with Retry-After 2 s", { status: 429, retryAfterMs: 2_000 }, wait(2_000)],
  ["503 with Retry-After 0", { status: 503, retryAfterMs: 0 }, wait(0)],
  ["429 with Retry-After over the ceiling", { status: 429, retryAfterMs: 60_001 }, giveUp(false)],
  ["429 with Retry-After at the ceiling", { status: 429, retryAfterMs: 60_000 }, wait(60_000)],
  // Non-idempotent writes after a response: the write may have happened.
  ["503 never", { status: 503, policy: "never" }, giveUp(true)],
  ["429 never", { status: 429, policy: "never" }, giveUp(true)],
  ["503 check-first", { status: 503, policy: "check-first" }, check],
  ["503 check-first, checked absent", { status: 503, policy: "check-first", writeAbsent: true }, wait(backoff(1))],
  // Failures without a response.
  ["network, sent, repeatable", { failure: sent }, wait(backoff(1))],
  ["network, sent, never", { failure: sent, policy: "never" }, giveUp(true)],
  ["network, sent, check-first", { failure: sent, policy: "check-first" }, check],
  ["network, not sent, never: safe to repeat", { failure: unsent, policy: "never" }, wait(backoff(1))],
  ["network, not sent, check-first", { failure: unsent, policy: "check-first" }, wait(backoff(1))],
  ["final failure (deadline, redirect, size), repeatable", { failure: final }, giveUp(false)],
  ["final failure, sent, never", { failure: final, policy: "never" }, giveUp(true)],
  ["final failure, sent, check-first", { failure: final, policy: "check-first" }, giveUp(true)],
  ["final failure, not sent, never", { failure: finalUnsent, policy: "never" }, giveUp(false)],
  // A poll's fetch: the poll's schedule retries.
  ["503 of a poll", { status: 503, pollCall: true }, giveUp(false)],
  ["network failure of a poll", { failure: sent, pollCall: true }, giveUp(false)],
  ["200 of a poll", { status: 200, pollCall: true }, answer],
  // The deadline.
  ["backoff within the deadline", { status: 503, msToDeadline: 1_000 }, wait(backoff(1))],
  ["backoff past the deadline", { status: 503, msToDeadline: 100 }, giveUp(false, backoff(1))],
  ["Retry-After past the deadline", { status: 429, retryAfterMs: 5_000, msToDeadline: 2_000 }, giveUp(false, 5_000)],
  ["429 wait past the deadline", { status: 429, msToDeadline: 6_000 }, giveUp(false, 7_500)],
  ["deadline already passed", { status: 503, msToDeadline: -5 }, giveUp(false, backoff(1))],
  ["last attempt beats the deadline", { status: 503, attempt: 5, msToDeadline: 1 }, giveUp(false)],
];

describe("decideRetry", () => {
  it.each(rows)("%s", (_name, row, expected) => {
    const input: RetryInput = { policy: "repeatable", attempt: 1, random: half, ...row };
    expect(decideRetry(input, retry)).toEqual(expected);
  });

  it("draws randomness only when it draws a wait, and at most once", () => {
    for (const [, row] of rows) {
      let draws = 0;
      const decision = decideRetry(
        {
          policy: "repeatable",
          attempt: 1,
          ...row,
          random: () => {
            draws += 1;
            return 0.5;
          },
        },
        retry,
      );
      expect(draws).toBeLessThanOrEqual(1);
      if (decision.kind === "answer" || decision.kind === "check-write") expect(draws).toBe(0);
      if (decision.kind === "retry" && row.retryAfterMs === undefined) expect(draws).toBe(1);
    }
  });
});
