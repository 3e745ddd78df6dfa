/**
 * `npx tsx bench/pacer-sim.ts` (also a section of `npm run bench`): the rate pacer against the AWS SDK's adaptive limiter (and no
 * pacing) over more partner limits than the live benchmark covers, in virtual time, so each
 * scenario takes milliseconds and every run gives the same figures (seeded).
 *
 * The model: N calls started at once; 8 in flight, 4 after a 429 (the real ConcurrencyLimiter);
 * the pacer under test in each slot; a token bucket server with fixed latency ±10 %; 5 attempts,
 * Section 8.3's 5–10 s wait after a 429. It models the transport, it does not run it: the live
 * figures are `npm run bench`'s.
 */

import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ConcurrencyLimiter } from "../src/transport/limiter.ts";
import { RatePacer } from "../src/transport/pacer.ts";
import { AwsAdaptiveLimiter } from "./aws-adaptive-limiter.ts";
import { fixed, type Section, table } from "./support.ts";

interface Scenario {
  readonly name: string;
  readonly rate: number;
  readonly burst: number;
  readonly calls: number;
  readonly latencyMs: number;
  /** The partner's rate changes to `to` at `atMs`. */
  readonly change?: { readonly atMs: number; readonly to: number };
  /** Instead of a bucket: each call refused at random with this probability (stray 429s). */
  readonly randomRefusal?: number;
}

type Mode = "pacer" | "aws" | "none";

interface Result {
  readonly seconds: number;
  readonly refused: number;
  readonly failed: number;
}

async function simulate(s: Scenario, mode: Mode, seed: number): Promise<Result> {
  let now = 0;
  let seq = 0;
  const timers: Array<{ at: number; seq: number; fn: () => void; live: boolean }> = [];
  const setTimer = (fn: () => void, ms: number) => {
    const t = { at: now + Math.max(0, ms), seq: seq++, fn, live: true };
    timers.push(t);
    return () => {
      t.live = false;
    };
  };
  let state = seed >>> 0;
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimer(resolve, ms));

  let rate = s.rate;
  let tokens = s.burst;
  let refilledAt = 0;
  const serve = (): number => {
    if (s.randomRefusal !== undefined) return random() < s.randomRefusal ? 429 : 200;
    tokens = Math.min(s.burst, tokens + ((now - refilledAt) * rate) / 1000);
    refilledAt = now;
    if (tokens >= 1) {
      tokens -= 1;
      return 200;
    }
    return 429;
  };
  const change = s.change;
  if (change) {
    setTimer(() => {
      rate = change.to;
    }, change.atMs);
  }

  const pacer = new RatePacer({ now: () => now, setTimer });
  const aws = new AwsAdaptiveLimiter({ now: () => now / 1000, sleep });
  const slots = new ConcurrencyLimiter({ max: 8, reduced: 4, quietMs: 60_000, now: () => now });
  let refused = 0;
  let failed = 0;
  let lastDone = 0;
  const call = async (): Promise<void> => {
    for (let attempt = 1; attempt <= 5; attempt++) {
      const release = await slots.acquire();
      let ticket = mode === "pacer" ? pacer.take() : 0;
      if (typeof ticket !== "number") ticket = await ticket;
      if (mode === "aws") await aws.getSendToken();
      await sleep((s.latencyMs / 2) * (0.9 + 0.2 * random()));
      const status = serve();
      await sleep((s.latencyMs / 2) * (0.9 + 0.2 * random()));
      release();
      if (mode === "aws") aws.updateClientSendingRate(status === 429);
      if (status === 429) {
        refused += 1;
        slots.rateLimited();
        if (mode === "pacer") pacer.throttled(ticket);
        if (attempt === 5) break;
        await sleep(5_000 + 5_000 * random());
        continue;
      }
      if (mode === "pacer") pacer.admitted();
      lastDone = now;
      return;
    }
    failed += 1;
    lastDone = now;
  };

  let finished = false;
  void Promise.all(Array.from({ length: s.calls }, call)).then(() => (finished = true));
  for (let step = 0; step < 5_000_000 && !finished; step++) {
    await new Promise((resolve) => setImmediate(resolve));
    if (finished) break;
    let next: (typeof timers)[number] | undefined;
    let index = -1;
    timers.forEach((t, i) => {
      if (t.live && (!next || t.at < next.at || (t.at === next.at && t.seq < next.seq))) [next, index] = [t, i];
    });
    if (!next) break;
    timers.splice(index, 1);
    now = next.at;
    next.fn();
    if (timers.length > 256) timers.splice(0, timers.length, ...timers.filter((t) => t.live));
  }
  return { seconds: lastDone / 1000, refused, failed };
}

const scenarios: Scenario[] = [
  { name: "goodput target: 20/s, burst 10, 20 ms", rate: 20, burst: 10, calls: 400, latencyMs: 20 },
  { name: "100/s, burst 50, 20 ms", rate: 100, burst: 50, calls: 2000, latencyMs: 20 },
  { name: "2/s, burst 5, 50 ms", rate: 2, burst: 5, calls: 60, latencyMs: 50 },
  { name: "20/s, burst 100, 20 ms", rate: 20, burst: 100, calls: 600, latencyMs: 20 },
  { name: "5/s, burst 1 (strict), 20 ms", rate: 5, burst: 1, calls: 100, latencyMs: 20 },
  {
    name: "20/s → 10/s at 20 s, burst 10",
    rate: 20,
    burst: 10,
    calls: 800,
    latencyMs: 20,
    change: { atMs: 20_000, to: 10 },
  },
  {
    name: "10/s → 30/s at 20 s, burst 10",
    rate: 10,
    burst: 10,
    calls: 1200,
    latencyMs: 20,
    change: { atMs: 20_000, to: 30 },
  },
  { name: "no limit, 6.5 % stray 429s, 5 ms", rate: 1, burst: 1, calls: 500, latencyMs: 5, randomRefusal: 0.065 },
];

function ideal(s: Scenario): number {
  if (s.randomRefusal !== undefined) return Number.NaN;
  if (!s.change) return (s.calls - s.burst) / s.rate;
  const before = s.burst + (s.rate * s.change.atMs) / 1000;
  return before >= s.calls ? (s.calls - s.burst) / s.rate : s.change.atMs / 1000 + (s.calls - before) / s.change.to;
}

const SEEDS = [1, 2, 3];

/** Every scenario in each mode, three seeds each: the worst completion time and the median 429 count. */
export async function pacerModel(): Promise<Section> {
  const rows: string[][] = [];
  for (const s of scenarios) {
    const cells: string[] = [s.name, Number.isNaN(ideal(s)) ? "—" : fixed(ideal(s))];
    for (const mode of ["pacer", "aws", "none"] as const) {
      const results: Result[] = [];
      for (const seed of SEEDS) results.push(await simulate(s, mode, seed));
      const worst = results.reduce((a, b) => (b.seconds > a.seconds ? b : a));
      const refused = results.map((r) => r.refused).sort((a, b) => a - b)[1] as number;
      const failed = Math.max(...results.map((r) => r.failed));
      cells.push(`${fixed(worst.seconds)} s, ${refused} × 429${failed ? `, ${failed} failed` : ""}`);
    }
    rows.push(cells);
  }
  const body = [
    "The same comparison over more partner limits, in a model of the transport run in virtual time (bench/pacer-sim.ts: the real `RatePacer`, `ConcurrencyLimiter` and AWS port; a token-bucket server with ±10 % latency jitter; 5 attempts; 5–10 s after a 429). Worst completion of 3 seeds, median 429s. A model, not a measurement: the live figures are the table above.",
    "",
    table(["scenario", "ideal s", "this pacer", "AWS adaptive limiter", "no pacing (limiter 8 → 4 only)"], rows),
  ].join("\n");
  return { title: "(b, model) Pacing across partner limits", body, targets: [] };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href)
  console.log((await pacerModel()).body);
