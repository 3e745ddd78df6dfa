/**
 * The reliability properties, only those the unit tests do not already prove. Where each
 * property lives — here or in test/unit — is listed in docs/RELIABILITY.md:
 *
 * - exactly one refresh under any interleaving of concurrent 401s: here, on the Session with a
 *   scheduled `send`, and through the whole client with a scheduled `fetch`;
 * - the limiter cap under any completion order: test/unit/concurrency.test.ts (fixed cap); here,
 *   with 429s, the quiet period on a fake clock, aborts and first-come-first-served order;
 * - autosave last-write-wins under any latency order: test/unit/autosave.test.ts;
 * - backoff windows for any attempt and draw: test/unit/backoff.test.ts (the pure function);
 *   here, the waits the retry policy actually asks for, for any failure sequence and options;
 * - Retry-After parsing: test/unit/backoff.test.ts; here, past HTTP-dates and padded seconds;
 * - normalizeBenchmark invariants: test/unit/benchmark.test.ts.
 */
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createClientWithSeams } from "../../src/create-client.ts";
import { createAudienceClient, isAudienceError } from "../../src/index.ts";
import type { CallRecord } from "../../src/internal/call-record.ts";
import { Redactor } from "../../src/internal/redact.ts";
import { normalizeOptions } from "../../src/options.ts";
import { Session } from "../../src/session/session.ts";
import { ConcurrencyLimiter } from "../../src/transport/limiter.ts";
import { parseRetryAfter } from "../../src/transport/retry-after.ts";
import { createSecretHarness } from "./secret-harness.ts";

// A fixed seed keeps the suite deterministic; FC_SEED=<n> explores (and replays) another run.
const FC_SEED = Number(process.env.FC_SEED ?? 0x6_2026);
fc.configureGlobal({ seed: FC_SEED });

const harness = createSecretHarness();

const PARTNER = "partner-id-acme";
const PASSWORD = "pw-properties-correct-horse";
const REFRESH = "refresh-properties-opaque-secret";
const ID_TOKEN = "id-token-properties-opaque";
harness.addSecrets(PASSWORD, REFRESH, ID_TOKEN, "access-token-retry-property");

const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "x-request-id": `req-${status}`, ...headers },
  });

/**
 * A token service and an API for one revocation: the first access token (from the sign-in) is
 * revoked after `revokeAfter` answered API calls (0: before any), and every refresh issues a new
 * one that stays valid. Answers go through the scheduler, so their order is fast-check's choice.
 */
function tokenWorld(s: fc.Scheduler, revokeAfter: number) {
  const state = { signIns: 0, refreshes: 0, issued: 0, answered: 0, saw401: false, revoked: new Set<string>() };
  const access = () => {
    const token = `access-token-properties-${++state.issued}`;
    harness.addSecrets(token);
    return token;
  };
  const maybeRevoke = () => {
    if (state.answered === revokeAfter) state.revoked.add("access-token-properties-1");
  };
  maybeRevoke();
  return {
    state,
    async auth(path: string, body: unknown): Promise<Response> {
      if (path.endsWith("/auth")) {
        state.signIns++;
        if ((body as { password?: unknown }).password !== PASSWORD) throw new Error("wrong password");
        return s.schedule(
          Promise.resolve(json({ AccessToken: access(), IdToken: ID_TOKEN, RefreshToken: REFRESH })),
          "sign-in answer",
        );
      }
      state.refreshes++;
      if ((body as { token?: unknown }).token !== REFRESH) throw new Error("wrong refresh token");
      return s.schedule(Promise.resolve(json({ AccessToken: access() })), "refresh answer");
    },
    async api(token: string | undefined, label: string): Promise<Response> {
      const response = await s.schedule(Promise.resolve(), label);
      void response;
      const refused = token === undefined || state.revoked.has(token);
      state.answered++;
      maybeRevoke();
      if (refused) state.saw401 = true;
      return refused ? json({ code: "error.auth.expired" }, 401) : json({ ok: true });
    },
  };
}

describe("session: single-flight refresh (Section 5.4)", () => {
  const config = normalizeOptions({
    baseUrl: "http://127.0.0.1:9/api/v3",
    credentials: { username: "ops", password: PASSWORD },
    partnerId: PARTNER,
  });

  it("Session: one sign-in, and exactly one refresh when 401s come, under any interleaving", async () => {
    let runsWith401 = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 14 }),
        async (s, calls, revokeAfter) => {
          const world = tokenWorld(s, revokeAfter);
          const session = new Session({
            config,
            redactor: new Redactor(),
            logger: {},
            send: async (request) => ({
              response: await world.auth(new URL(request.url).pathname, JSON.parse(String(request.body))),
              record: () => ({ method: "POST", path: new URL(request.url).pathname }) as CallRecord,
            }),
          });
          // Each call does what the retry policy does: one replay after a 401, with the renewed token.
          const call = async (i: number): Promise<number> => {
            await s.schedule(Promise.resolve(), `start call ${i}`);
            let { accessToken } = await session.authorize();
            let response = await world.api(accessToken, `answer call ${i}`);
            if (response.status === 401) {
              await session.reauthenticate(accessToken);
              ({ accessToken } = await session.authorize());
              response = await world.api(accessToken, `answer replay ${i}`);
            }
            return response.status;
          };
          const statuses = await s.waitFor(Promise.all(Array.from({ length: calls }, (_, i) => call(i))));
          expect(statuses).toEqual(Array(calls).fill(200));
          expect(world.state.signIns).toBe(1);
          expect(world.state.refreshes).toBe(world.state.saw401 ? 1 : 0);
          expect(session.stats).toEqual({ signIns: 1, refreshes: world.state.refreshes });
          if (world.state.saw401) runsWith401++;
        },
      ),
      { numRuns: 150 },
    );
    expect(runsWith401).toBeGreaterThan(50); // most runs revoke the token while calls are in flight
  });

  it("whole client: exactly one refresh, each call replayed at most once, under any order of answers", async () => {
    let runsWith401 = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.integer({ min: 1, max: 14 }),
        fc.integer({ min: 0, max: 16 }),
        async (s, calls, revokeAfter) => {
          const world = tokenWorld(s, revokeAfter);
          const sent = new Map<string, number>();
          const client = createAudienceClient({
            baseUrl: "http://127.0.0.1:9/api/v3",
            credentials: { username: "ops", password: PASSWORD },
            partnerId: PARTNER,
            logger: harness.logger,
            fetch: async (request) => {
              const path = new URL(request.url).pathname;
              if (path.includes("/auth")) return world.auth(path, await request.json());
              sent.set(path, (sent.get(path) ?? 0) + 1);
              return world.api(
                /^Bearer (.+)$/.exec(request.headers.get("authorization") ?? "")?.[1],
                `answer ${path} #${sent.get(path)}`,
              );
            },
          });
          const results = await s.waitFor(
            Promise.all(
              Array.from({ length: calls }, (_, i) =>
                s
                  .schedule(Promise.resolve(), `start e${i}`)
                  .then(() => client.GET("/events/{eid}", { params: { path: { eid: `e${i}` } } })),
              ),
            ),
          );
          expect(results.map((r) => r.response.status)).toEqual(Array(calls).fill(200));
          expect(world.state.signIns).toBe(1);
          expect(world.state.refreshes).toBe(world.state.saw401 ? 1 : 0);
          expect(Math.max(...sent.values())).toBeLessThanOrEqual(2);
          expect(client.sessionStats()).toEqual({ signIns: 1, refreshes: world.state.refreshes });
          if (world.state.saw401) runsWith401++;
        },
      ),
      { numRuns: 100 },
    );
    expect(runsWith401).toBeGreaterThan(30);
  });
});

describe("limiter: caps under any completion order (Section 8.4)", () => {
  // test/unit/concurrency.test.ts proves a fixed cap; this adds 429s, the quiet period, aborts and order.
  const task = fc.record({
    rateLimited: fc.boolean(),
    abortWhileQueued: fc.boolean(),
    advanceMs: fc.integer({ min: 0, max: 40 }),
  });

  it("never grants above the cap in force (8, or 4 for the quiet period after a 429), serves in order, never starves", async () => {
    const seen = { reducedGrants: 0, abortedWaiters: 0, quietPeriodsEnded: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 8 }),
        fc.array(task, { minLength: 1, maxLength: 24 }),
        async (s, max, reducedWish, tasks) => {
          const reduced = Math.min(max, reducedWish);
          const quietMs = 50;
          let now = 0;
          let last429 = Number.NEGATIVE_INFINITY;
          const limiter = new ConcurrencyLimiter({ max, reduced, quietMs, now: () => now });
          const model = (): number => (now - last429 < quietMs ? reduced : max);
          const problems: string[] = [];
          // After every acquire and release (each drains the queue synchronously): the cap the
          // limiter reports is the model's, no grant went above it, and nobody waits while a slot is free.
          const checkpoint = (activeBefore: number, what: string): void => {
            if (limiter.limit !== model()) problems.push(`${what}: limit ${limiter.limit}, expected ${model()}`);
            if (limiter.active > activeBefore && limiter.active > model())
              problems.push(`${what}: granted up to ${limiter.active} with cap ${model()}`);
            if (limiter.queued > 0 && limiter.active < limiter.limit)
              problems.push(`${what}: ${limiter.queued} waiting with ${limiter.active}/${limiter.limit} in use`);
          };
          const granted: number[] = [];
          const run = async (t: (typeof tasks)[number], i: number): Promise<"done" | "aborted"> => {
            const controller = new AbortController();
            if (t.abortWhileQueued)
              void s.schedule(Promise.resolve(), `abort ${i}`).then(() => controller.abort(new Error(`abort ${i}`)));
            const before = limiter.active;
            const pending = limiter.acquire(controller.signal);
            checkpoint(before, `acquire ${i}`);
            let release: () => void;
            try {
              release = await pending;
            } catch {
              seen.abortedWaiters++;
              return "aborted";
            }
            granted.push(i);
            if (model() < max) seen.reducedGrants++;
            await s.schedule(Promise.resolve(), `finish ${i}${t.rateLimited ? " with a 429" : ""}`);
            if (now - last429 < quietMs && now + t.advanceMs - last429 >= quietMs) seen.quietPeriodsEnded++;
            now += t.advanceMs;
            if (t.rateLimited) {
              limiter.rateLimited();
              last429 = now;
            }
            const after = limiter.active - 1;
            release();
            release(); // a second release is a no-op
            checkpoint(after, `release ${i}`);
            return "done";
          };
          const results = await s.waitFor(Promise.all(tasks.map(run)));
          expect(problems).toEqual([]);
          expect(granted).toEqual([...granted].sort((a, b) => a - b)); // first come, first served
          tasks.forEach((t, i) => {
            if (!t.abortWhileQueued) expect(results[i]).toBe("done");
          });
          expect(limiter.active).toBe(0);
          expect(limiter.queued).toBe(0);
        },
      ),
      { numRuns: 200 },
    );
    for (const [what, n] of Object.entries(seen)) expect(n, what).toBeGreaterThan(10);
  });
});

describe("retry policy: the waits it asks for (Section 8.2–8.3)", () => {
  // test/unit/backoff.test.ts checks the pure functions; this checks what the policy does with
  // them, through the client's seams (random, sleep), for any failure sequence and options. The
  // wall clock stands still at NOW: an HTTP-date Retry-After is judged against it (the server's
  // clock, with no Date header to learn a skew from, is the local one).
  afterEach(() => {
    vi.useRealTimers();
  });
  const NOW = Date.UTC(2026, 10, 22, 10, 0, 0); // whole seconds: HTTP-dates carry no milliseconds
  const failure = fc.oneof(
    fc.constantFrom(500, 502, 503, 504).map((status) => ({ status, retryAfter: undefined as string | undefined })),
    fc.record({
      status: fc.constant(429),
      retryAfter: fc.option(
        fc.oneof(
          fc.integer({ min: 0, max: 4 }).map(String),
          fc.integer({ min: -3, max: 4 }).map((n) => new Date(NOW + n * 1000).toUTCString()),
          fc.constantFrom("soon", "-1", ""),
        ),
        { nil: undefined },
      ),
    }),
    fc.constantFrom(503).map((status) => ({ status, retryAfter: "2" })),
  );
  interface Options {
    maxAttempts: number;
    baseDelayMs: number;
    capFactor: number;
    rateLimit: readonly [number, number];
    maxRetryAfterMs: number;
  }
  const options: fc.Arbitrary<Options> = fc.record({
    maxAttempts: fc.integer({ min: 1, max: 5 }),
    baseDelayMs: fc.integer({ min: 1, max: 2_000 }),
    capFactor: fc.integer({ min: 1, max: 64 }),
    rateLimit: fc
      .tuple(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 10_000 }))
      .map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const),
    maxRetryAfterMs: fc.integer({ min: 0, max: 5_000 }),
  });

  /** Section 8.3, restated here rather than imported: the window of each wait. */
  function expectedWindow(
    k: number,
    step: { status: number; retryAfter: string | undefined },
    o: Options,
  ): { stop: boolean; min: number; max: number } {
    const cap = o.baseDelayMs * o.capFactor;
    let retryAfterMs: number | undefined;
    if (step.retryAfter !== undefined && /^\d+$/.test(step.retryAfter)) retryAfterMs = Number(step.retryAfter) * 1000;
    else if (step.retryAfter !== undefined && /GMT$/.test(step.retryAfter))
      retryAfterMs = Math.max(0, Date.parse(step.retryAfter) - NOW);
    if (retryAfterMs !== undefined)
      return { stop: retryAfterMs > o.maxRetryAfterMs, min: retryAfterMs, max: retryAfterMs }; // honoured as given
    if (step.status === 429) return { stop: false, min: o.rateLimit[0], max: o.rateLimit[1] };
    const d = Math.min(cap, o.baseDelayMs * 2 ** (k - 1));
    return { stop: false, min: 0.7 * d, max: d };
  }

  it("every wait lies in its window; attempts stop at maxAttempts or at a Retry-After above the ceiling", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    const seen = { waits: 0, honouredRetryAfter: 0, stoppedByCeiling: 0, stoppedByCap: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(failure, { maxLength: 6 }),
        options,
        fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 1, maxLength: 8 }),
        async (script, o, draws) => {
          const waits: number[] = [];
          let sent = 0;
          let draw = 0;
          const client = createClientWithSeams(
            {
              baseUrl: "http://127.0.0.1:9/api/v3",
              session: { accessToken: "access-token-retry-property" },
              partnerId: PARTNER,
              ratePacing: false, // this property is about the retry policy's own waits
              logger: harness.logger,
              fetch: async () => {
                const step = script[sent++];
                return step
                  ? json(
                      { code: "error.x" },
                      step.status,
                      step.retryAfter === undefined ? {} : { "retry-after": step.retryAfter },
                    )
                  : json({ ok: true });
              },
              retry: {
                maxAttempts: o.maxAttempts,
                baseDelayMs: o.baseDelayMs,
                maxDelayMs: o.baseDelayMs * o.capFactor,
                rateLimitDelayMs: o.rateLimit,
                maxRetryAfterMs: o.maxRetryAfterMs,
              },
            },
            {
              retryHooks: {
                random: () => draws[draw++ % draws.length] as number,
                sleep: async (ms) => void waits.push(ms),
              },
            },
          );
          const result = await client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });

          // The model: walk the script as the policy should.
          const windows: Array<{ min: number; max: number }> = [];
          let attempts = 0;
          for (;;) {
            attempts++;
            const step = script[attempts - 1];
            if (!step) break; // success
            const w = expectedWindow(attempts, step, o);
            if (w.stop) seen.stoppedByCeiling++;
            else if (attempts >= o.maxAttempts) seen.stoppedByCap++;
            if (w.stop || attempts >= o.maxAttempts) break;
            if (w.min === w.max && step.retryAfter !== undefined) seen.honouredRetryAfter++;
            windows.push(w);
          }
          expect(sent).toBe(attempts);
          expect(result.response.status).toBe(script[attempts - 1]?.status ?? 200);
          expect(waits).toHaveLength(windows.length);
          seen.waits += waits.length;
          waits.forEach((ms, i) => {
            const w = windows[i] as { min: number; max: number };
            expect(ms, `wait ${i + 1} of ${JSON.stringify(script)}`).toBeGreaterThanOrEqual(w.min - 1e-9);
            expect(ms, `wait ${i + 1} of ${JSON.stringify(script)}`).toBeLessThanOrEqual(w.max + 1e-9);
          });
        },
      ),
      { numRuns: 300 },
    );
    for (const [what, n] of Object.entries(seen)) expect(n, what).toBeGreaterThan(10);
  });
});

describe("Retry-After parsing (Section 8.3)", () => {
  // Seconds, future dates and garbage are in test/unit/retry-after.test.ts; these are the other forms.
  const now = Date.UTC(2026, 10, 22, 10, 0, 0);

  it("any past HTTP-date means now (0), never a negative wait", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20 * 365 * 86_400 }),
        (s) => parseRetryAfter(new Date(now - s * 1000).toUTCString(), now) === 0,
      ),
    );
  });

  it("seconds padded with whitespace are read as seconds", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 86_400 }),
        fc.constantFrom(" ", "\t", "  "),
        (s, pad) => parseRetryAfter(`${pad}${s}${pad}`, now) === s * 1000,
      ),
    );
  });
});

describe("errors stay typed", () => {
  it("a call that cannot reach the server rejects with a typed error (scan fodder for the secret harness)", async () => {
    const client = createAudienceClient({
      baseUrl: "http://127.0.0.1:9/api/v3",
      credentials: { username: "ops", password: PASSWORD },
      logger: harness.logger,
      retry: { maxAttempts: 1 },
      fetch: async () => Promise.reject(new TypeError("fetch failed")),
    });
    const error = await client.GET("/events/", {}).catch((e: unknown) => harness.capture(e));
    expect(isAudienceError(error)).toBe(true);
  });
});

describe("secret harness", () => {
  it("finds a planted secret in a message, a support report and a log line", () => {
    const probe = createSecretHarness();
    probe.addSecrets("s3cr3t-token-value");
    probe.logger.info("clean line", { ok: true });
    expect(probe.leaks()).toEqual([]);
    const error = new Error("request failed with s3cr3t-token-value in it");
    probe.capture(error);
    probe.logger.debug("leaky", { authorization: "Bearer s3cr3t-token-value" });
    expect(probe.leaks().length).toBeGreaterThanOrEqual(3); // message, String(), stack, log line
    expect(probe.leaks().join("\n")).not.toContain("s3cr3t-token-value"); // the report masks it
  });
});

// Last in the file (tests run in order): everything the properties above produced.
it("secret scan: no token or password in any error or log line of the properties", () => {
  console.log(`secret scan (properties): ${JSON.stringify(harness.counts())}`);
  expect(harness.counts().logLines).toBeGreaterThan(0);
  expect(harness.leaks()).toEqual([]);
});
