/**
 * Child process of test/support/linear-time.ts. `cases` times every case of
 * test/reliability/linear-cases.ts at n and 4n; `patterns <file…>` screens every regular-expression
 * literal of the files on pumped inputs. Prints one JSON document on stdout.
 */
import { readFileSync } from "node:fs";
import ts from "typescript";
import { cases } from "../reliability/linear-cases.ts";

/** Same as LINEAR_RATIO_LIMIT in linear-time.ts (not imported: that module spawns this one). */
const RATIO_LIMIT = 8;

interface Scaling {
  small: number;
  large: number;
  ratio: number;
}

/** Milliseconds per call: repeated for at least 10 ms, the minimum over rounds (load only adds time). */
function perCall(run: () => void): number {
  let reps = 0;
  const t0 = performance.now();
  let t = t0;
  do {
    run();
    reps++;
    t = performance.now();
  } while (t - t0 < 10);
  return (t - t0) / reps;
}

function scaling(small: () => void, large: () => void, rounds = 5): Scaling {
  // Warm up both sizes, so that both are timed with code the JIT has settled on (a loop first
  // optimized on the small input can run a different tier on the large one).
  for (let i = 0; i < 3; i++) small();
  large();
  small();
  let bestSmall = Number.POSITIVE_INFINITY;
  let bestLarge = Number.POSITIVE_INFINITY;
  const started = performance.now();
  for (let round = 0; round < rounds; round++) {
    // Interleaved, so that a burst of load from other processes falls on both sizes alike.
    bestSmall = Math.min(bestSmall, perCall(small));
    bestLarge = Math.min(bestLarge, perCall(large));
    if (performance.now() - started > 3_000) break; // a quadratic case: one round says enough
  }
  return { small: bestSmall, large: bestLarge, ratio: bestLarge / bestSmall };
}

/** Below this time per call at 4n, a case above the limit is also measured at 4n against 16n. */
const STEP_CHECK_MS = 50;

/**
 * A case above the limit is measured again, up to four times, and keeps its lowest ratio: load, a
 * garbage collection or a JIT tier change can inflate one measurement (a loaded CI run measured
 * 10.1 once for a case that gives 4–6 idle), but a quadratic case stays near 16 every time.
 *
 * A case still above it, and quick at 4n, is measured one size up too (4n against 16n), keeping the
 * lower ratio: a step that happens once between two sizes (the working set outgrowing a CPU cache,
 * a string or table moving to the large-object space: 10 to 20 here between 2 000 and 8 000 nested
 * objects, then 4 again above) lies between one pair of sizes only, while a quadratic cost grows
 * about 16 times at every step. Quick at 4n, so that a quadratic case stays under a second at 16n.
 */
function runCases(): Record<string, Scaling> {
  return Object.fromEntries(
    Object.entries(cases).map(([name, c]) => {
      const [small, large] = [c.prepare(c.n), c.prepare(4 * c.n)];
      let best = scaling(small, large);
      for (let again = 0; again < 4 && best.ratio >= RATIO_LIMIT; again++) {
        const next = scaling(small, large);
        if (next.ratio < best.ratio) best = next;
      }
      if (best.ratio >= RATIO_LIMIT && best.large < STEP_CHECK_MS) {
        const up = scaling(large, c.prepare(16 * c.n));
        if (up.ratio < best.ratio) best = up;
      }
      return [name, best];
    }),
  );
}

const META = new Set([..."^$()[]{}|?*+\\"]);
const EXTRA = ["1", "a", "A", " ", ".", "/", "-", "%", "e", ",", ":", "_"];

/** Characters worth repeating for this pattern: its literal characters plus one per common class. */
function alphabet(source: string): string[] {
  const out = new Set(EXTRA);
  for (let i = 0; i < source.length; i++) {
    const ch = source[i] as string;
    if (ch === "\\") {
      const next = source[++i] ?? "";
      const cls: Record<string, string[]> = { d: ["1"], s: [" ", "\t"], w: ["a"], W: ["!"], S: ["a"], D: ["a"] };
      for (const c of cls[next] ?? [next]) out.add(c);
    } else if (!META.has(ch)) out.add(ch);
  }
  return [...out].filter((c) => c.length === 1);
}

/** The literal text an anchored pattern must start with (`^partner-id-[…` gives `partner-id-`). */
function literalPrefix(source: string): string {
  if (!source.startsWith("^")) return "";
  let out = "";
  for (let i = 1; i < source.length; i++) {
    const ch = source[i] as string;
    if (ch === "\\") {
      const next = source[i + 1] ?? "";
      if (/[dswDSWbB]/.test(next)) break;
      out += next;
      i++;
    } else if (META.has(ch) || ch === ".") break;
    else out += ch;
  }
  // A quantifier after the last character makes it optional: leave it out.
  return /[?*{]/.test(source[1 + out.length] ?? "") ? out.slice(0, -1) : out;
}

function regexLiterals(file: string): Array<{ file: string; text: string }> {
  const sf = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const out: Array<{ file: string; text: string }> = [];
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const { line } = sf.getLineAndCharacterOfPosition(node.getStart());
      out.push({ file: `${file}:${line + 1}`, text: node.getText() });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

const SCREEN_N = 2_000;
const SUFFIXES = ["", "!", "\n", "\u0000", " ", "x"];

function screen(files: string[]) {
  const suspects: Array<{ file: string; pattern: string; input: string; scaling: Scaling }> = [];
  let checked = 0;
  for (const { file, text } of files.flatMap(regexLiterals)) {
    checked++;
    const slash = text.lastIndexOf("/");
    const source = text.slice(1, slash);
    const re = new RegExp(source, text.slice(slash + 1).replace(/[gy]/g, ""));
    const letters = alphabet(source);
    const pumps = [...letters, ...letters.flatMap((a) => letters.map((b) => a + b))];
    const prefixes = [...new Set(["", literalPrefix(source)])];
    search: for (const prefix of prefixes) {
      for (const pump of pumps) {
        for (const suffix of SUFFIXES) {
          const make = (n: number) => prefix + pump.repeat(n) + suffix;
          const large = make(4 * SCREEN_N);
          const t0 = performance.now();
          re.test(large);
          if (performance.now() - t0 < 2) continue; // clearly fast: no closer look needed
          const small = make(SCREEN_N);
          let s = scaling(
            () => re.test(small),
            () => re.test(large),
          );
          // As for the cases: a ratio above the limit is measured again, up to twice, keeping the
          // lowest (a CI run on a loaded machine once saw 10.8 for a linear pattern at 0.2 ms a call).
          for (let again = 0; again < 2 && s.ratio >= RATIO_LIMIT; again++) {
            const next = scaling(
              () => re.test(small),
              () => re.test(large),
            );
            if (next.ratio < s.ratio) s = next;
          }
          if (s.ratio >= RATIO_LIMIT) {
            suspects.push({
              file,
              pattern: text,
              input: `${JSON.stringify(prefix)} + ${JSON.stringify(pump)} × n + ${JSON.stringify(suffix)}`,
              scaling: s,
            });
            break search; // one witness per pattern is enough
          }
        }
      }
    }
  }
  return { checked, suspects };
}

const [mode, ...rest] = process.argv.slice(2);
const result = mode === "cases" ? runCases() : screen(rest);
process.stdout.write(JSON.stringify(result));
