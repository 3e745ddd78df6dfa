/**
 * The package as a member of a consumer's workspace, from source (what a git
 * checkout, submodule or subtree holds: no dist/), after the consumer's ordinary install with the
 * real package manager — npm, pnpm, and Yarn 4 with its node-modules and PnP linkers. No manual
 * build: the member's `postinstall` builds dist/ (Yarn never runs `prepare`).
 *
 * Each workspace holds the member and the consumer app of consumer-app.ts, which depends on it
 * (npm by version, pnpm and Yarn through `workspace:`); its only setting is the one docs/PACKAGING.md
 * names for pnpm (`allowBuilds` for the member's devDependencies esbuild, @scarf/scarf and msw). The app
 * type-checks under bundler and nodenext resolution with its own TypeScript, then its nodenext
 * build runs against Prism (under PnP through `yarn node`).
 *
 * The registry this CI reaches lacks some other platforms' optional binaries (@biomejs/cli-*,
 * @oxc-parser/binding-* …) that Yarn resolves for every platform: the Yarn workspaces map each
 * optional package of package-lock.json that is for another platform to an empty local package
 * (`resolutions`), which changes nothing on this one. A consumer on the public registry needs none.
 *
 * Slow (four installs of the member's devDependencies): `npm run test:workspaces` with
 * RUNTIMES_DIR holding pnpm and @yarnpkg/cli-dist (installed outside the project by .ci/run).
 */
import { cp, mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { makeZip, minimalXlsxEntries } from "../support/make-zip.ts";
import { expectRun, json, PNPM_WORKSPACE_SETTING, pkg, root, run, SLOW, writeApp } from "./consumer-app.ts";

const dir = process.env.RUNTIMES_DIR ?? "";
const enabled = process.env.PACKAGING_TESTS === "1" && dir !== "";
const INSTALL = 600_000;

const pnpmBin = join(dir, "node_modules", "pnpm", "bin", "pnpm.mjs");
const yarnBin = join(dir, "node_modules", "@yarnpkg", "cli-dist", "bin", "yarn.js");

let scratch = "";
let xlsxPath = "";
let sourceFiles: string[] = [];

beforeAll(async () => {
  if (!enabled) return;
  scratch = await mkdtemp(join(tmpdir(), "ai-workspaces-"));
  xlsxPath = join(scratch, "book.xlsx");
  await writeFile(xlsxPath, makeZip(minimalXlsxEntries()));
  // What a checkout of the repository holds: tracked and untracked-but-not-ignored files.
  const { stdout } = await run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], root);
  const listed = stdout.split("\0").filter(Boolean);
  const present = await Promise.all(
    listed.map((f) =>
      stat(join(root, f)).then(
        (s) => s.isFile(),
        () => false,
      ),
    ),
  );
  sourceFiles = listed.filter((_, i) => present[i]);
}, SLOW);

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
}, SLOW); // a scratch tree of installs takes long to delete on a busy disk

async function copySource(member: string): Promise<void> {
  for (const file of sourceFiles) {
    await mkdir(dirname(join(member, file)), { recursive: true });
    await cp(join(root, file), join(member, file));
  }
}

/** Every optional package of package-lock.json built for another platform than this linux-x64 glibc one. */
async function otherPlatformPackages(): Promise<string[]> {
  const lock = JSON.parse(await readFile(join(root, "package-lock.json"), "utf8")) as {
    packages: Record<string, { optional?: boolean; os?: string[]; cpu?: string[]; libc?: string[] }>;
  };
  const names = new Set<string>();
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (!entry.optional || (!entry.os && !entry.cpu && !entry.libc)) continue;
    const here =
      (!entry.os || entry.os.includes("linux")) &&
      (!entry.cpu || entry.cpu.includes("x64")) &&
      (!entry.libc || entry.libc.includes("glibc"));
    if (!here) names.add(path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length));
  }
  // Yarn resolves afresh, past the lockfile: newer releases of miniflare's tree name this Windows
  // helper, which the registry this CI reaches does not hold.
  names.add("napi-windows-process-start-time");
  return [...names].sort();
}

interface Manager {
  readonly title: string;
  /** How the app depends on the member. */
  readonly dependency: string;
  /** Writes the workspace root's files (the members are already there). */
  setup(ws: string): Promise<void>;
  install(ws: string): Promise<unknown>;
  /** Runs a bin of the app's dependencies, in the app. */
  exec(app: string, bin: string, args: readonly string[], env?: Record<string, string>): Promise<{ stdout: string }>;
  /** Runs Node on a file of the app the way this manager's layout needs. */
  node(app: string, file: string, env: Record<string, string>): Promise<{ stdout: string }>;
}

const registry = process.env.npm_config_registry || "https://registry.npmjs.org";
const nodeIn = (app: string, file: string, env: Record<string, string>) => run(process.execPath, [file], app, env);

const npmManager: Manager = {
  title: "npm",
  dependency: `^${pkg.version}`,
  setup: async (ws) => {
    await writeFile(
      join(ws, "package.json"),
      json({ name: "consumer-workspace", private: true, workspaces: ["packages/*"] }),
    );
  },
  install: (ws) => run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"], ws),
  exec: (app, bin, args, env) => run("npm", ["exec", "--no", "--", bin, ...args], app, env),
  node: nodeIn,
};

const pnpmManager: Manager = {
  title: "pnpm",
  dependency: "workspace:*",
  setup: async (ws) => {
    await writeFile(join(ws, "package.json"), json({ name: "consumer-workspace", private: true }));
    await writeFile(join(ws, "pnpm-workspace.yaml"), `packages:\n  - "packages/*"\n${PNPM_WORKSPACE_SETTING}`);
  },
  // CI=true makes pnpm want a lockfile; a consumer's first install has none.
  install: (ws) => run(process.execPath, [pnpmBin, "install", "--no-frozen-lockfile"], ws),
  exec: (app, bin, args, env) => run(process.execPath, [pnpmBin, "exec", bin, ...args], app, env),
  node: nodeIn,
};

function yarnManager(linker: "node-modules" | "pnp"): Manager {
  const yarnEnv = () => ({
    YARN_ENABLE_IMMUTABLE_INSTALLS: "false", // CI=true makes Yarn want a lockfile
    YARN_ENABLE_GLOBAL_CACHE: "false",
    YARN_CACHE_FOLDER: join(scratch, "yarn-cache"),
    YARN_ENABLE_TELEMETRY: "0",
    YARN_NPM_REGISTRY_SERVER: registry.replace(/\/$/, ""),
    YARN_NODE_LINKER: linker,
    YARN_GLOBAL_FOLDER: join(scratch, "yarn-global"),
  });
  const yarn = (args: readonly string[], cwd: string, env: Record<string, string> = {}) =>
    run(process.execPath, [yarnBin, ...args], cwd, { ...yarnEnv(), ...env });
  return {
    title: `Yarn 4, nodeLinker ${linker}`,
    dependency: "workspace:^",
    setup: async (ws) => {
      await mkdir(join(ws, "registry-gap-stub"), { recursive: true });
      await writeFile(
        join(ws, "registry-gap-stub", "package.json"),
        json({ name: "registry-gap-stub", version: "0.0.0" }),
      );
      const resolutions = Object.fromEntries(
        (await otherPlatformPackages()).map((name) => [name, "file:./registry-gap-stub"]),
      );
      await writeFile(
        join(ws, "package.json"),
        json({ name: "consumer-workspace", private: true, workspaces: ["packages/*"], resolutions }),
      );
      await writeFile(join(ws, "yarn.lock"), "");
    },
    install: (ws) => yarn(["install"], ws),
    exec: (app, bin, args, env) => yarn(["exec", bin, ...args], app, env),
    node: (app, file, env) => (linker === "pnp" ? yarn(["node", file], app, env) : nodeIn(app, file, env)),
  };
}

const managers: Manager[] = [npmManager, pnpmManager, yarnManager("node-modules"), yarnManager("pnp")];

describe.skipIf(!enabled)("workspace members from source (npm run test:workspaces)", () => {
  describe.each(managers)("$title", (manager) => {
    let ws = "";
    let app = "";
    let member = "";

    beforeAll(async () => {
      ws = join(scratch, manager.title.replace(/[^a-z0-9]+/gi, "-"));
      member = join(ws, "packages", "client");
      app = join(ws, "packages", "app");
      await copySource(member);
      await writeApp(app, manager.dependency, { typescript: pkg.devDependencies.typescript ?? "" });
      await manager.setup(ws);
      await manager.install(ws);
    }, INSTALL);

    it("builds the member's dist/ during the ordinary install", async () => {
      for (const file of ["dist/src/index.js", "dist/src/index.d.ts", "dist/src/node/index.js"])
        expect((await stat(join(member, file))).isFile()).toBe(true);
    });

    it.each(["bundler", "nodenext"])(
      "the app type-checks under moduleResolution %s (skipLibCheck off)",
      async (mode) => {
        await manager.exec(app, "tsc", ["-p", `tsconfig.${mode}.json`]);
      },
      SLOW,
    );

    it(
      "the app's nodenext build runs against Prism",
      async () => {
        await manager.exec(app, "tsc", ["-p", "tsconfig.nodenext.json"]);
        const { stdout } = await manager.node(app, join("out", "nodenext", "main.js"), {
          PRISM_URL: inject("prismUrl"),
          XLSX_PATH: xlsxPath,
        });
        expectRun(stdout, false); // the test kit (./testing) is the consumers suite's concern
      },
      SLOW,
    );

    it.runIf(manager.title === "npm")(
      "the root test run docs/PACKAGING.md shows finds the app's tests and none of the member's",
      async () => {
        const vitest = join(ws, "node_modules", "vitest", "vitest.mjs");
        const list = async () =>
          (await run(process.execPath, [vitest, "list", "--filesOnly"], ws)).stdout.split("\n").filter(Boolean);
        // Without the setting, the member's suite is in the way (the reason for it).
        expect((await list()).some((file) => file.includes("packages/client/test/"))).toBe(true);
        const docs = await readFile(join(root, "docs", "PACKAGING.md"), "utf8");
        const config = /```ts\n(\/\/ vitest\.config\.ts at the workspace root[\s\S]*?)```/.exec(docs)?.[1];
        expect(config).toBeDefined();
        await writeFile(join(ws, "vitest.config.ts"), config as string);
        const files = await list();
        await rm(join(ws, "vitest.config.ts"));
        expect(files.filter((file) => file.includes("packages/client/"))).toEqual([]);
        expect(files.some((file) => file.includes("packages/app/test/"))).toBe(true);
      },
      SLOW,
    );

    it("the app resolves the workspace member, not a registry copy", async () => {
      await writeFile(
        join(app, "resolve.cjs"),
        // Under PnP a package with peer dependencies resolves to a virtual path of its folder.
        `let path = require("node:fs").realpathSync(require.resolve(${JSON.stringify(`${pkg.name}/package.json`)}));
try { path = require("pnpapi").resolveVirtual(path) ?? path; } catch {}
console.log(path);
`,
      );
      const { stdout } = await manager.node(app, "resolve.cjs", {});
      expect(stdout.trim()).toBe(join(await realpath(member), "package.json"));
    });
  });
});
