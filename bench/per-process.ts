/**
 * One process per variant, paired: the harness of the request-path figures. Each pair
 * runs every variant once, each in a fresh process (bench/cpu-probe.ts), in an order rotated from
 * pair to pair; a variant's figure is then compared with bare openapi-fetch's of the same pair,
 * and the report gives the median of the pairs and their spread (min–max).
 */
import { fork } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ProbeResult, ProbeTask, VariantName } from "./cpu-probe.ts";
import { fixed, median, rotated, table } from "./support.ts";

/** A probe that has not answered in this long is killed: every probe is bounded. */
const PROBE_TIMEOUT_MS = 120_000;

export const PEERS_URL = pathToFileURL(fileURLToPath(new URL("./peers/index.mjs", import.meta.url))).href;

/** Runs one probe in a fresh process and resolves with what it measured. */
export function runProbe(task: ProbeTask): Promise<ProbeResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL("./cpu-probe.ts", import.meta.url)), [JSON.stringify(task)], {
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    let result: ProbeResult | undefined;
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${task.variant} (${task.mode}): no answer in ${PROBE_TIMEOUT_MS / 1000} s`));
    }, PROBE_TIMEOUT_MS);
    child.on("message", (m) => {
      result = m as ProbeResult;
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (result) resolve(result);
      else reject(new Error(`${task.variant} (${task.mode}): probe exited (${code}) without figures`));
    });
  });
}

/** Per variant, one figure per pair (the median of that process's samples). */
export type PairFigures = Map<VariantName, number[]>;

/**
 * `pairs` pairs of `variants` in `mode`, each variant a fresh process; `pick` takes the figure of
 * interest from each probe's samples (e.g. the c1 calls/s). Returns one map per picked figure.
 */
export async function pairedRuns(
  base: Omit<ProbeTask, "variant" | "mode">,
  mode: ProbeTask["mode"],
  variants: readonly VariantName[],
  pairs: number,
  onProgress: (line: string) => void = () => undefined,
): Promise<ProbeResult[][]> {
  const byPair: ProbeResult[][] = [];
  for (let p = 0; p < pairs; p++) {
    const results: ProbeResult[] = [];
    for (const variant of rotated(variants, p)) results.push(await runProbe({ ...base, variant, mode }));
    byPair.push(results);
    onProgress(`pair ${p + 1}/${pairs} (${mode}) done`);
  }
  return byPair;
}

/** The figure `pick` gives, per variant, one per pair. */
export function figures(byPair: ProbeResult[][], pick: (r: ProbeResult) => number[] | undefined): PairFigures {
  const out: PairFigures = new Map();
  for (const results of byPair)
    for (const r of results) {
      const samples = pick(r);
      if (samples?.length) out.set(r.variant, [...(out.get(r.variant) ?? []), median(samples)]);
    }
  return out;
}

export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

export function spreadOf(values: readonly number[]): Spread {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

/** Pair by pair, `f(variant's figure, the reference's figure of the same pair)`. */
export function paired(
  f: PairFigures,
  variant: VariantName,
  reference: VariantName,
  op: (a: number, b: number) => number,
): number[] {
  const a = f.get(variant) ?? [];
  const b = f.get(reference) ?? [];
  return a.map((x, i) => op(x, b[i] as number)).filter((x) => Number.isFinite(x));
}

/** "12.3 (10.1–15.0)", or "−3.1 (−4.0 to 2.2)" when a bound is negative, the unit after each number. */
export function showSpread(s: Spread, digits: number, unit = ""): string {
  if (!Number.isFinite(s.median)) return "n/a";
  const n = (x: number) => fixed(x, digits).replace("-", "−");
  const between = s.min < 0 ? " to " : "–";
  return `${n(s.median)}${unit} (${n(s.min)}${between}${n(s.max)}${unit})`;
}

/** The four figures of an HTTP run: calls/s and the calling process's CPU µs per call, at c1 and c8. */
export interface HttpFigures {
  readonly c1: PairFigures;
  readonly c8: PairFigures;
  readonly cpu1: PairFigures;
  readonly cpu8: PairFigures;
}

export function httpFigures(byPair: ProbeResult[][]): HttpFigures {
  return {
    c1: figures(byPair, (r) => r.c1),
    c8: figures(byPair, (r) => r.c8),
    cpu1: figures(byPair, (r) => r.c1CpuUs),
    cpu8: figures(byPair, (r) => r.c8CpuUs),
  };
}

/** Pair by pair, a variant's figure ÷ the reference's (calls/s ratios). */
export const ratioTo = (f: PairFigures, variant: VariantName, reference: VariantName): Spread =>
  spreadOf(paired(f, variant, reference, (a, b) => a / b));

/** Pair by pair, a variant's figure − the reference's, in µs (CPU differences). */
const overUs = (f: PairFigures, variant: VariantName, reference: VariantName): string =>
  showSpread(spreadOf(paired(f, variant, reference, (a, b) => a - b)), 1, " µs");

/** The stub-CPU table of a section: each variant's CPU per call, and its difference from `reference`'s. */
export function stubCpuTable(variants: readonly VariantName[], cpu: PairFigures, reference: VariantName): string {
  return table(
    ["variant", "CPU µs/call, median (min–max) of pairs", `− ${reference}, same pair`],
    variants.map((v) => [
      v,
      showSpread(spreadOf(cpu.get(v) ?? []), 1),
      v === reference ? "" : overUs(cpu, v, reference),
    ]),
  );
}

/** The HTTP table of a section: calls/s and CPU per call at c1 and c8, each against `reference`'s of the same pair. */
export function httpTable(variants: readonly VariantName[], f: HttpFigures, reference: VariantName): string {
  const short = reference.replace(" openapi-fetch", "");
  return table(
    [
      "variant",
      "calls/s c1",
      `÷ ${short} c1, same pair`,
      "calls/s c8",
      `÷ ${short} c8, same pair`,
      "CPU µs/call c1 / c8",
      `− ${short}, same pair, c1 / c8`,
    ],
    variants.map((v) => [
      v,
      fixed(median(f.c1.get(v) ?? []), 0),
      v === reference ? "" : showSpread(ratioTo(f.c1, v, reference), 2, "×"),
      fixed(median(f.c8.get(v) ?? []), 0),
      v === reference ? "" : showSpread(ratioTo(f.c8, v, reference), 2, "×"),
      `${fixed(median(f.cpu1.get(v) ?? []), 0)} / ${fixed(median(f.cpu8.get(v) ?? []), 0)}`,
      v === reference ? "" : `${overUs(f.cpu1, v, reference)} / ${overUs(f.cpu8, v, reference)}`,
    ]),
  );
}
