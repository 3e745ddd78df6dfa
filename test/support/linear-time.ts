/**
 * Linear-time checks run in a child process, so that a quadratic pattern blocks that process and
 * not the test runner, and so that timings are not disturbed by other tests in the same worker.
 * What is asserted is a ratio (the time for 4n over the time for n), never an absolute duration:
 * linear code gives about 4, quadratic code about 16.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const CHILD = fileURLToPath(new URL("./linear-time-child.ts", import.meta.url));

/** Below this ratio the growth is taken as linear; quadratic growth gives about 16. */
export const LINEAR_RATIO_LIMIT = 8;

export interface Scaling {
  /** Milliseconds per call at size n and at size 4n (the minimum over several rounds). */
  readonly small: number;
  readonly large: number;
  readonly ratio: number;
}

export interface SuspectPattern {
  readonly file: string;
  readonly pattern: string;
  readonly input: string;
  readonly scaling: Scaling;
}

/**
 * A quadratic case can run for hours: the child is killed past this (below the tests' 120 s), and
 * when the test process exits, so that it never outlives the run that started it.
 */
const CHILD_LIMIT_MS = 110_000;

function runChild<T>(args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", CHILD, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    const kill = () => child.kill("SIGKILL");
    const timer = setTimeout(kill, CHILD_LIMIT_MS);
    process.once("exit", kill);
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c));
    child.stderr.on("data", (c: Buffer) => (err += c));
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      process.off("exit", kill);
      if (code === null) return reject(new Error(`linear-time child killed after ${CHILD_LIMIT_MS} ms: ${err}`));
      if (code !== 0) return reject(new Error(`linear-time child exited ${code}: ${err}`));
      try {
        resolve(JSON.parse(out) as T);
      } catch {
        reject(new Error(`linear-time child printed no JSON: ${out} ${err}`));
      }
    });
  });
}

/** Time ratio of each case of test/reliability/linear-cases.ts between size n and 4n, by name (one child). */
export const measureCases = (): Promise<Record<string, Scaling>> => runChild(["cases"]);

/**
 * Every regular-expression literal of the given source files, run on pumped inputs (a prefix, a
 * short string repeated n times, a suffix that makes the match fail): the ones whose time grows
 * faster than linearly.
 */
export const screenPatterns = (files: readonly string[]): Promise<{ checked: number; suspects: SuspectPattern[] }> =>
  runChild(["patterns", ...files]);
