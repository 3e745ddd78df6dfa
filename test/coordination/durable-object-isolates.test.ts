/**
 * One partner's budget and session shared by 8 isolates (8 worker services in workerd, Miniflare 4)
 * through the `AudienceCoordinator` object, against a local API that counts the calls in flight
 * and the sign-ins: at most 8 in flight, one sign-in, no failed call, also while every isolate's
 * binding throws and while the objects' workerd is restarted mid-run (then ≤ 8 in flight again
 * within one lease period). Bounded counts; the figures
 * (429s, goodput, round trips, the baseline) are the bench's (`npm run bench -- --only=isolates`).
 */
import { afterEach, describe, expect, it } from "vitest";
import { DURABLE_OBJECT_DEFAULTS } from "../../src/cloudflare/index.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { type IsolateRun, type Isolates, startIsolates } from "../support/isolates.ts";
import { json } from "../support/recording-server.ts";

const ISOLATES = 8;
const SLOW = 120_000;
/** A test machine shared with other work answers slower than the edge: not a stall, not the object away. */
const ANSWER_MS = 3_000;
/** The coordinator's lease: within one after a disturbance, the partner is back at ≤ 8 in flight. */
const LEASE_MS = DURABLE_OBJECT_DEFAULTS.leaseMs;
let api: FakeApi | undefined;
let isolates: Isolates | undefined;

afterEach(async () => {
  await isolates?.close();
  await api?.close();
  isolates = undefined;
  api = undefined;
});

/** An API that answers each call after `ms`, counts the most calls in flight at once, and when there were more than 8. */
async function countingApi(ms: number): Promise<{ api: FakeApi; most: () => number; over: () => number[] }> {
  const fake = await startFakeApi();
  let inFlight = 0;
  let most = 0;
  const over: number[] = [];
  fake.route((_req, res) => {
    inFlight += 1;
    most = Math.max(most, inFlight);
    if (inFlight > 8) over.push(Date.now());
    setTimeout(() => {
      inFlight -= 1;
      json(res, 200, { eid: "e" });
    }, ms);
  });
  return { api: fake, most: () => most, over: () => over };
}

const runAll = (iso: Isolates, calls: number, round: number): Promise<IsolateRun[]> =>
  Promise.all(Array.from({ length: ISOLATES }, (_, i) => iso.run(i, (round * ISOLATES + i) * calls, calls)));

const failed = (runs: IsolateRun[]) => runs.reduce((n, r) => n + r.failed, 0);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** More than 8 in flight only within one lease period after the disturbance ended (the fair shares' and a lost state's). */
function backWithinALease(over: number[], disturbedUntil: number): void {
  const late = over.filter((at) => at > disturbedUntil + LEASE_MS).map((at) => at - disturbedUntil);
  expect(late, "ms after the disturbance with more than 8 in flight").toEqual([]);
}

describe("8 isolates share one partner through the Durable Object (workerd)", () => {
  it(
    "at most 8 calls in flight, one sign-in, no failed call; the binding throwing mid-run fails no call, signs in no more, and is said once per isolate",
    async () => {
      const { api: fake, most, over } = await countingApi(40);
      api = fake;
      isolates = await startIsolates({
        setup: "direct",
        count: ISOLATES,
        baseUrl: fake.url,
        partner: "partner-a",
        answerMs: ANSWER_MS,
      });
      const first = await runAll(isolates, 6, 0);
      expect(failed(first), JSON.stringify(first.flatMap((r) => r.errors))).toBe(0);
      expect(fake.signIns()).toBe(1);
      expect(most()).toBeLessThanOrEqual(8);
      expect(most()).toBeGreaterThanOrEqual(4);

      const during = runAll(isolates, 6, 1);
      await isolates.fault(400);
      const faultEnd = Date.now() + 400;
      const faulted = await during;
      const after = await runAll(isolates, 6, 2);
      await sleep(Math.max(0, faultEnd + LEASE_MS - Date.now()));
      const later = await runAll(isolates, 6, 3);
      const runs = [...faulted, ...after, ...later];
      expect(failed(runs), JSON.stringify(runs.flatMap((r) => r.errors))).toBe(0);
      expect(fake.signIns()).toBe(1);
      // Across the fault, as the requests' new clients start, the isolates' fair shares may hold 9
      // for a moment (a loaded 2-core machine); within one lease period after it, ≤ 8 again.
      backWithinALease(over(), faultEnd);
      for (const r of after) expect(r.warnings).toBeLessThanOrEqual(1);
    },
    SLOW,
  );

  it(
    "the objects' workerd restarted mid-run: no failed call, at most one sign-in more",
    async () => {
      const { api: fake, most, over } = await countingApi(40);
      api = fake;
      const iso = await startIsolates({
        setup: "remote",
        count: ISOLATES,
        baseUrl: fake.url,
        partner: "partner-b",
        answerMs: ANSWER_MS,
      });
      isolates = iso;
      await runAll(iso, 2, 0);
      const during = runAll(iso, 10, 1);
      await new Promise((r) => setTimeout(r, 100));
      await iso.stopObjects();
      await new Promise((r) => setTimeout(r, 500));
      await iso.startObjects();
      const restarted = Date.now();
      const runs = [...(await during), ...(await runAll(iso, 6, 2))];
      await sleep(Math.max(0, restarted + LEASE_MS - Date.now()));
      runs.push(...(await runAll(iso, 6, 3)));
      expect(failed(runs), JSON.stringify(runs.flatMap((r) => r.errors))).toBe(0);
      // The target is 1 (the bench's restart, mid-run, measures 1); stopped while the requests' new
      // clients read the session, one isolate can still sign in alone: at most one more.
      expect(fake.signIns()).toBeLessThanOrEqual(2);
      // Across this early restart (while the requests' new clients start) the fair shares and the
      // object that lost its state may hold more than 8 for a moment (15 seen on a loaded 2-core
      // machine); within one lease period after it, ≤ 8 again.
      backWithinALease(over(), restarted);
      expect(most()).toBeGreaterThan(0);
    },
    SLOW,
  );
});
