/**
 * The write that happened twice (Section 3 rule 3: POST /setup_processes/{eid} is not idempotent;
 * check whether the earlier call succeeded before repeating it — no blind repeat). The fault run
 * once saw a draft created twice under heavy load. This property explores the orders of the
 * pieces involved with fast-check's scheduler: each POST's answer (201, 429, 500 with or without
 * the write, a 401 that revokes the token), a POST whose connection is lost while the server
 * still holds it — its write lands at any later moment, before or after the check's GET — the
 * check itself, the refresh after a 401 and the replay. Whatever the order: at most one draft is
 * created, a success means exactly one, and an error never says "not written" of a write that
 * landed.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createClientWithSeams } from "../../src/create-client.ts";
import { type AudienceError, isAudienceError, unwrap } from "../../src/index.ts";
import { makeTokens } from "../support/tokens.ts";

type PostAnswer = "created" | "429" | "500-written" | "500" | "401" | "lost-written" | "lost";
const POST_ANSWERS: readonly PostAnswer[] = ["created", "429", "500-written", "500", "401", "lost-written", "lost"];

const PAYLOAD = { goal: "ROAS", total_budget: 1500, targeting: [{ draft: "e1" }] };
const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "x-request-id": `r-${status}` },
  });
const lostConnection = (): Error =>
  new TypeError("fetch failed", { cause: Object.assign(new Error("reset"), { code: "ECONNRESET" }) });

/** A fake API whose every answer, and every late write, is a task of the scheduler. */
function world(s: fc.Scheduler, answers: readonly PostAnswer[]) {
  const first = makeTokens();
  let current = first.AccessToken;
  let posts = 0;
  const state = { written: 0, draft: undefined as unknown, refreshes: 0, posts: 0, lateWrites: 0 };
  const write = (body: unknown): void => {
    state.written += 1;
    state.draft = body;
  };
  const fetch = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname.replace(/^\/api\/v3/, "");
    const bearer = /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
    if (path === "/auth/refresh_token") {
      state.refreshes += 1;
      current = makeTokens().AccessToken;
      return s.schedule(
        Promise.resolve(json(200, { AccessToken: current, IdToken: first.IdToken })),
        "refresh answered",
      );
    }
    if (bearer !== current)
      return s.schedule(Promise.resolve(json(401, { code: "error.auth.token_revoked" })), "stale 401");
    if (request.method === "GET")
      return s.schedule(
        Promise.resolve(state.written ? json(200, state.draft) : json(404, { code: "error.not_found" })),
        `check answered ${state.written ? 200 : 404}`,
      );
    const body: unknown = await request.json();
    const answer = answers[posts++] ?? "created";
    state.posts += 1;
    switch (answer) {
      case "created":
        write(body);
        return s.schedule(Promise.resolve(json(201, body)), "201");
      case "429":
        return s.schedule(Promise.resolve(json(429, { code: "error.rate_limited" })), "429");
      case "500-written":
        write(body);
        return s.schedule(Promise.resolve(json(500, { code: "error.server" })), "500 after the write");
      case "500":
        return s.schedule(Promise.resolve(json(500, { code: "error.server" })), "500");
      case "401":
        current = `revoked-${current}`; // the token is revoked: the next refresh issues another
        return s.schedule(Promise.resolve(json(401, { code: "error.auth.expired" })), "401");
      case "lost-written":
        // The server still holds the request: its write lands whenever the scheduler says.
        void s.schedule(Promise.resolve(), "late write").then(() => {
          state.lateWrites += 1;
          write(body);
        });
        return s.schedule(Promise.reject(lostConnection()), "connection lost (write pending)");
      case "lost":
        return s.schedule(Promise.reject(lostConnection()), "connection lost");
    }
  };
  return { fetch, state, first };
}

describe("a draft is created at most once, under any order of answers, checks, refreshes and late writes", () => {
  it("POST /setup_processes/{eid} through the client (Section 3 rule 3)", async () => {
    const seen = { lateWriteAfterCheck: 0, replays: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(fc.constantFrom(...POST_ANSWERS), { minLength: 1, maxLength: 5 }),
        async (s, answers) => {
          const w = world(s, answers);
          const client = createClientWithSeams(
            {
              baseUrl: "http://127.0.0.1:9/api/v3",
              session: {
                accessToken: w.first.AccessToken,
                refreshToken: w.first.RefreshToken,
                idToken: w.first.IdToken,
              },
              fetch: w.fetch,
              ratePacing: false,
              retry: { maxAttempts: 5 }, // Section 8.2
            },
            { retryHooks: { sleep: async () => undefined, random: () => 0 } },
          );
          const outcome = await s
            .waitFor(client.POST("/setup_processes/{eid}", { params: { path: { eid: "e1" } }, body: PAYLOAD as never }))
            .then((result) => ({ value: unwrap(result) as unknown, error: undefined }))
            .catch((error: unknown) => ({ value: undefined, error }));
          await s.waitAll(); // every late write lands
          const { state } = w;
          const report = `${s.report()} answers=${answers.join(",")} written=${state.written}`;
          expect(state.written, report).toBeLessThanOrEqual(1);
          if (outcome.error === undefined) {
            expect(state.written, report).toBe(1);
            expect(outcome.value, report).toEqual(PAYLOAD);
          } else {
            expect(isAudienceError(outcome.error), report).toBe(true);
            if (state.written > 0) expect((outcome.error as AudienceError).mayHaveSucceeded, report).toBe(true);
          }
          if (state.lateWrites > 0) seen.lateWriteAfterCheck++;
          if (answers.includes("401")) seen.replays++;
        },
      ),
      { numRuns: 300 },
    );
    expect(seen.lateWriteAfterCheck).toBeGreaterThan(20);
    expect(seen.replays).toBeGreaterThan(20);
  }, 90_000); // about 5 s alone; six times that was seen on a loaded 2-core machine
});
