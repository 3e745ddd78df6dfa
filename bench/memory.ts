/**
 * (c) Memory: 100 000 events through `listEvents` (pages of 100 from the fast mount), heap measured
 * after a full GC before, every 10 000 events and after, in a fresh `node --expose-gc` process
 * (bench/memory-probe.ts); against collecting the same events into an array, the way a caller
 * without a paginator would hold them.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { MemoryFigures } from "./memory-probe.ts";
import { TOTAL_EVENTS } from "./scenario.ts";
import { type BenchServer, fixed, type Section, table } from "./support.ts";

const MB = 1024 * 1024;
const BUDGET_MB = 50;

function runProbe(base: string): Promise<MemoryFigures> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL("./memory-probe.ts", import.meta.url)), [base], {
      execArgv: ["--expose-gc", "--import", "tsx"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    let figures: MemoryFigures | undefined;
    child.on("message", (m) => (figures = m as MemoryFigures));
    child.on("error", reject);
    child.on("exit", (code) =>
      figures ? resolve(figures) : reject(new Error(`memory probe exited (${code}) without figures`)),
    );
  });
}

export async function memory(server: BenchServer): Promise<Section> {
  const f = await runProbe(server.fast);
  if (f.count !== TOTAL_EVENTS) throw new Error(`listEvents yielded ${f.count} events, expected ${TOTAL_EVENTS}`);
  const body = [
    `${TOTAL_EVENTS.toLocaleString("en")} events through \`listEvents(client, { limit: 100 })\` (1 000 pages of ~16 KB JSON, answered at once), in a fresh \`node --expose-gc\` process; heap used measured after \`gc()\` before the loop, every 10 000 events and after it.`,
    "",
    table(
      ["", "heap growth", "note"],
      [
        [
          "listEvents, iterating",
          `${fixed(f.peak / MB)} MB`,
          `largest sample; ${fixed(f.after / MB)} MB after the loop; ${fixed(f.seconds)} s for the ${TOTAL_EVENTS.toLocaleString("en")} events (${fixed(f.count / f.seconds, 0)} events/s)`,
        ],
        [
          "the same events collected into an array",
          `${fixed(f.collected / MB)} MB`,
          `what holding them all costs; ${fixed(f.collected / Math.max(f.peak, MB / 10), 0)}× the iterating growth`,
        ],
      ],
    ),
  ].join("\n");
  return {
    title: "(c) Memory",
    body,
    targets: [
      {
        name: "memory: heap growth over 100 000 events",
        target: `< ${BUDGET_MB} MB`,
        measured: `${fixed(f.peak / MB)} MB`,
        met: f.peak < BUDGET_MB * MB,
      },
    ],
  };
}
