/**
 * (e) Start-up: the time to import the package in a fresh Node process, against importing
 * openapi-fetch alone; and the time `npm run generate` takes.
 *
 * The package is imported as a user's Node process would load a build of it: src/index.ts bundled
 * by esbuild (platform node, ESM, dependencies left as imports resolved from node_modules) into
 * bench/.build/. Importing the TypeScript source through tsx is shown too, as the path
 * the repository's own scripts and tests take.
 */
import { spawnSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildPackage, fixed, median, ratio, rotated, type Section, table } from "./support.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const ROUNDS = 12;
/** Import of the installed package ÷ openapi-fetch alone. */
const IMPORT_TARGET_RATIO = 1.5;

interface Probe {
  readonly name: string;
  readonly execArgv: readonly string[];
  readonly specifier: string | undefined;
}

/** Runs one fresh process; returns the import time it measured itself and the whole process's wall time. */
function once(probe: Probe): { importMs: number; wallMs: number } {
  const code = probe.specifier
    ? `const t = performance.now(); await import(${JSON.stringify(probe.specifier)}); console.log(performance.now() - t);`
    : "console.log(0);";
  const started = performance.now();
  const out = spawnSync(process.execPath, [...probe.execArgv, "--input-type=module", "-e", code], {
    cwd: root,
    encoding: "utf8",
  });
  const wallMs = performance.now() - started;
  if (out.status !== 0) throw new Error(`${probe.name}: ${out.stderr}`);
  return { importMs: Number(out.stdout.trim()), wallMs };
}

export async function startup(): Promise<Section> {
  const bundle = await buildPackage();
  // The package as a registry serves it: `npm run build` (prepack's) writes dist/.
  const built = spawnSync("npm", ["run", "--silent", "build"], { cwd: root, encoding: "utf8" });
  if (built.status !== 0) throw new Error(`npm run build: ${built.stderr || built.stdout}`);

  const probes: Probe[] = [
    { name: "node, importing nothing", execArgv: [], specifier: undefined },
    { name: "openapi-fetch alone", execArgv: [], specifier: "openapi-fetch" },
    { name: "zod/mini alone", execArgv: [], specifier: "zod/mini" },
    {
      name: "this package as installed (dist/ of npm run build)",
      execArgv: [],
      specifier: pathToFileURL(join(root, "dist", "src", "index.js")).href,
    },
    { name: "this package (esbuild build of src/index.ts)", execArgv: [], specifier: pathToFileURL(bundle).href },
    {
      name: "this package from source through tsx",
      execArgv: ["--import", "tsx"],
      specifier: pathToFileURL(join(root, "src", "index.ts")).href,
    },
  ];
  const samples = new Map<string, Array<{ importMs: number; wallMs: number }>>();
  for (const p of probes) once(p); // warm the file cache
  for (let round = 0; round < ROUNDS; round++) {
    for (const p of rotated(probes, round)) samples.set(p.name, [...(samples.get(p.name) ?? []), once(p)]);
  }
  const imp = (name: string) => median((samples.get(name) ?? []).map((s) => s.importMs));
  const wall = (name: string) => median((samples.get(name) ?? []).map((s) => s.wallMs));
  const ofetch = "openapi-fetch alone";
  const pkg = "this package as installed (dist/ of npm run build)";

  const generate: number[] = [];
  let generateStatus = "ok";
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const out = spawnSync("npm", ["run", "--silent", "generate:check"], { cwd: root, encoding: "utf8" });
    generate.push(performance.now() - started);
    if (out.status !== 0) generateStatus = `exit ${out.status}: ${(out.stderr || out.stdout).trim().split("\n")[0]}`;
  }

  const body = [
    `Fresh \`node\` processes (${ROUNDS} rounds, probes interleaved, medians). "import" is the time of \`await import(…)\` measured inside the process; "process" is the whole process from spawn to exit, as the runner saw it.`,
    "",
    table(
      ["probe", "import ms", "process ms", "import vs openapi-fetch"],
      probes.map((p) => [
        p.name,
        p.specifier ? fixed(imp(p.name)) : "—",
        fixed(wall(p.name), 0),
        p.specifier ? ratio(imp(p.name), imp(ofetch)) : "—",
      ]),
    ),
    "",
    `Importing the installed package costs ${fixed(imp(pkg) - imp(ofetch))} ms more than openapi-fetch alone (${ratio(imp(pkg), imp(ofetch))}): dist/ is bundled per entry with the validators (and zod/mini, ${fixed(imp("zod/mini alone"))} ms on its own) in a chunk loaded on the first validated call (scripts/bundle-dist.mjs). The esbuild build of src/index.ts above is one file without code splitting, so it loads zod at once.`,
    "",
    `\`npm run generate\`: ${fixed(median(generate) / 1000, 2)} s (median of 3; measured as \`npm run generate:check\`, which runs the same lint, overlays and emitters into a temporary folder and compares, so the bench never rewrites generated/; status: ${generateStatus}).`,
  ].join("\n");
  const installed = "this package as installed (dist/ of npm run build)";
  const installedRatio = imp(installed) / imp(ofetch);
  return {
    title: "(e) Start-up",
    body,
    targets: [
      {
        name: "import of the installed package (dist/) ÷ openapi-fetch alone",
        target: `≤ ${IMPORT_TARGET_RATIO}×`,
        measured: `${installedRatio.toFixed(2)}× (${fixed(imp(installed))} ms)`,
        met: installedRatio <= IMPORT_TARGET_RATIO,
      },
    ],
  };
}
