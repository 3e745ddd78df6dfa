/**
 * `npm run bench` (never part of `npm test`): starts the bench server in its own process, runs the
 * sub-benchmarks behind BENCHMARKS.md in order, prints the report and writes it to bench/results/latest.md.
 * Run under `node --expose-gc --import tsx` (the npm script does). `--only=a,peers,queue,b,model,c,d,e,operations,cluster,isolates`
 * runs a subset and only prints it; `--runs=3` makes the cluster bench report the worst of three runs;
 * `--pairs=N` sets the pairs of processes of sections a (default 5) and peers (default 3).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundle } from "./bundle.ts";
import { cluster } from "./cluster.ts";
import { goodput } from "./goodput.ts";
import { isolates } from "./isolates.ts";
import { memory } from "./memory.ts";
import { operations } from "./operations.ts";
import { overhead } from "./overhead.ts";
import { pacerModel } from "./pacer-sim.ts";
import { peers } from "./peers.ts";
import { queue } from "./queue.ts";
import { startup } from "./startup.ts";
import { type Section, startBenchServer, table } from "./support.ts";

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv
  .find((a) => a.startsWith("--only="))
  ?.slice("--only=".length)
  .split(",");
const wanted = (key: string) => !only || only.includes(key);

const showLoad = (load: number[]) => load.map((l) => l.toFixed(1)).join(", ");

async function main(): Promise<void> {
  const started = performance.now();
  const loadBefore = loadavg();
  const server = await startBenchServer();
  const sections: Section[] = [];
  try {
    const steps: Array<[string, () => Promise<Section>]> = [
      ["a", () => overhead(server)],
      ["peers", () => peers(server)],
      ["queue", () => queue()],
      ["b", () => goodput(server)],
      ["model", () => pacerModel()],
      ["c", () => memory(server)],
      ["d", () => bundle()],
      ["e", () => startup()],
      ["operations", () => operations()],
      ["cluster", () => cluster(server)],
      ["isolates", () => isolates(server)],
    ];
    for (const [key, step] of steps) {
      if (!wanted(key)) continue;
      const t = performance.now();
      const section = await step();
      sections.push(section);
      console.error(`bench: ${section.title} done in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    }
  } finally {
    server.close();
  }
  const cpu = cpus();
  const targets = sections.flatMap((s) => s.targets);
  const report = [
    "# Benchmark report",
    "",
    `Written by \`npm run bench\` on ${new Date().toISOString()}; ${((performance.now() - started) / 1000).toFixed(0)} s in all.`,
    `Machine: Node ${process.version}, ${cpu.length} cores (${cpu[0]?.model.trim() ?? "unknown CPU"}), ${process.platform}/${process.arch}. Server: node:http on 127.0.0.1 in a child process.`,
    `Load average (1, 5, 15 min) at the start ${showLoad(loadBefore)}, at the end ${showLoad(loadavg())}: above ${cpu.length}, other work shared the cores and absolute figures are slower.`,
    "",
    "## Targets",
    "",
    targets.length
      ? table(
          ["target", "wanted", "measured", "met"],
          targets.map((t) => [t.name, t.target, t.measured, t.met ? "yes" : "**no**"]),
        )
      : "(none in the sections run)",
    ...sections.flatMap((s) => ["", `## ${s.title}`, "", s.body]),
    "",
  ].join("\n");
  if (!only) {
    mkdirSync(join(here, "results"), { recursive: true });
    writeFileSync(join(here, "results", "latest.md"), report);
  }
  console.log(report);
}

await main();
