/**
 * The package as other TypeScript repositories consume it.
 *
 * `npm pack` (its `prepack` runs `npm run build`) makes the tarball a registry would serve. Then,
 * in a scratch folder under the OS temp directory:
 *
 * - an npm workspace whose members are a copy of the packed files and a consumer app that depends
 *   on it by version (npm links the member);
 * - a stand-alone consumer app that installs the tarball with `--install-strategy=linked`, npm's
 *   isolated layout (as pnpm does): only declared dependencies are reachable, so a `.d.ts` that
 *   imports an undeclared package fails here rather than in a pnpm user's build.
 *
 * Each consumer type-checks the same program under `moduleResolution: "bundler"` and `"nodenext"`
 * with `skipLibCheck: false` and without @types/node (the root entry needs only the DOM lib), with
 * this repository's tsc; the program contains `@ts-expect-error` lines, so declarations that
 * decayed to `any` fail the check. It then runs against the Prism mock twice — compiled by tsc
 * (nodenext) and bundled by esbuild (bundler) — through the root entry and the `./node` subpath,
 * and starts a mock of its own through `./testing` (Prism installed as the app's devDependency,
 * found as the package's optional peer). The README's vitest example runs with the app's vitest.
 * Finally the root entry alone is bundled for the browser, which fails on any `node:` import.
 *
 * Slow (pack, two installs, eight compiles): not part of `npm test`; `npm run test:consumers` runs
 * it (CI does, after the build). Installs use `--prefer-offline`: openapi-fetch and zod come from
 * the npm cache when they are there, else from the registry.
 */
import { cp, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { makeZip, minimalXlsxEntries } from "../support/make-zip.ts";
import { expectRun, json, npm, pkg, root, run, SLOW, tsc, writeApp } from "./consumer-app.ts";

const enabled = process.env.PACKAGING_TESTS === "1";
const runtimesDir = process.env.RUNTIMES_DIR ?? "";
const versions = JSON.parse(await readFile(join(root, "test", "runtimes", "runtimes.json"), "utf8")) as Record<
  string,
  string
>;

let scratch = "";
let xlsxPath = "";
let manifestBeforePack = "";
let packed: { filename: string; files: { path: string }[] } | undefined;

beforeAll(async () => {
  if (!enabled) return;
  scratch = await mkdtemp(join(tmpdir(), "ai-consumers-"));
  xlsxPath = join(scratch, "book.xlsx");
  await writeFile(xlsxPath, makeZip(minimalXlsxEntries()));
  manifestBeforePack = await readFile(join(root, "package.json"), "utf8");
  const { stdout } = await npm(["pack", "--json", "--pack-destination", scratch], root);
  // npm prints the prepack build's output before the JSON array.
  packed = (JSON.parse(stdout.slice(stdout.indexOf("\n[") + 1)) as (typeof packed & object)[])[0];
}, SLOW);

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
}, SLOW); // a scratch tree of installs takes long to delete on a busy disk

/**
 * `testKit`: run `./testing` (startMockApi and the README's vitest example). Off for npm's linked
 * layout only: there Prism 5.14 itself cannot start (@stoplight/prism-core requires
 * @stoplight/types without declaring it), after `./testing` has found it as the peer.
 */
function consumerSuite(
  title: string,
  install: () => Promise<{ app: string; resolved: string; expected: string }>,
  testKit = true,
): void {
  describe(title, () => {
    let app = "";

    beforeAll(async () => {
      const installed = await install();
      app = installed.app;
      // The consumer resolves the package where it should: the workspace member, or the tarball's copy.
      expect(installed.resolved).toBe(installed.expected);
    }, SLOW);

    it.each(["bundler", "nodenext"])(
      "type-checks under moduleResolution %s (skipLibCheck off, no @types/node)",
      async (mode) => {
        await tsc(`tsconfig.${mode}.json`, app);
      },
      SLOW,
    );

    // The TypeScript floor of package.json (peerDependencies) and the latest TypeScript, as .ci/run
    // installs them outside the project (RUNTIMES_DIR); 5.0–5.3 fail here (TS2344 in openapi-fetch).
    const typescripts = [
      ["floor", versions.typescriptFloor, "ts-floor"],
      ["latest", versions.typescriptLatest, "ts-latest"],
    ] as const;
    it
      .skipIf(!runtimesDir)
      .each(
        typescripts.flatMap(([which, version, alias]) =>
          ["bundler", "nodenext"].map((mode) => [which, version, mode, alias] as const),
        ),
      )(
      "type-checks with TypeScript %s (%s) under moduleResolution %s",
      async (_which, version, mode, alias) => {
        const bin = join(runtimesDir, "node_modules", alias, "bin", "tsc");
        const { stdout } = await run(process.execPath, [bin, "--version"], app);
        expect(stdout.trim()).toBe(`Version ${version}`);
        await run(process.execPath, [bin, "-p", `tsconfig.${mode}.json`, "--noEmit"], app);
      },
      SLOW,
    );

    it(
      "runs against Prism, compiled by tsc (nodenext) and run by Node",
      async () => {
        await tsc("tsconfig.nodenext.json", app);
        const { stdout } = await run(process.execPath, [join("out", "nodenext", "main.js")], app, {
          PRISM_URL: inject("prismUrl"),
          XLSX_PATH: xlsxPath,
          TEST_KIT: testKit ? "1" : "0",
        });
        expectRun(stdout, testKit);
      },
      SLOW,
    );

    it(
      "runs against Prism, bundled by esbuild (bundler)",
      async () => {
        const outfile = join(app, "out", "bundle", "main.mjs");
        await build({
          absWorkingDir: app,
          entryPoints: ["src/main.ts"],
          bundle: true,
          platform: "node",
          format: "esm",
          target: "node20",
          outfile,
          logLevel: "silent",
        });
        const { stdout } = await run(process.execPath, [outfile], app, {
          PRISM_URL: inject("prismUrl"),
          XLSX_PATH: xlsxPath,
          TEST_KIT: testKit ? "1" : "0",
        });
        expectRun(stdout, testKit);
      },
      SLOW,
    );

    it.skipIf(!testKit)(
      "runs the README's testing example (startMockApi from ./testing) with the consumer's vitest",
      async () => {
        const vitest = join(
          dirname(createRequire(join(app, "package.json")).resolve("vitest/package.json")),
          "vitest.mjs",
        );
        const { stdout } = await run(process.execPath, [vitest, "run", "--root", app, "--reporter=verbose"], app);
        // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes
        const plain = stdout.replace(/\u001b\[[0-9;]*m/g, "");
        expect(plain).toMatch(/reads an event/);
        expect(plain).toMatch(/Tests\s+2 passed \(2\)/);
      },
      SLOW,
    );

    it(
      "bundles the root entry for the browser: the browser build (browser condition), no node: import, nothing of ./node",
      async () => {
        const result = await build({
          absWorkingDir: app,
          entryPoints: ["src/browser.ts"],
          bundle: true,
          platform: "browser",
          format: "esm",
          write: false,
          metafile: true,
          logLevel: "silent",
        });
        const inputs = Object.keys(result.metafile.inputs);
        expect(inputs.filter((input) => input.startsWith("node:") || /dist\/src\/node\//.test(input))).toEqual([]);
        expect(inputs.some((input) => /dist\/browser\/src\/index\.js$/.test(input))).toBe(true);
        expect(inputs.filter((input) => /dist\/src\//.test(input))).toEqual([]); // none of the server build
      },
      SLOW,
    );
  });
}

describe.skipIf(!enabled)("consumers (npm run test:consumers)", () => {
  it("packs a package.json without install-time scripts, and restores the repository's byte for byte", async () => {
    const { stdout } = await run("tar", ["-xzOf", join(scratch, packed?.filename ?? ""), "package/package.json"], root);
    const scripts = (JSON.parse(stdout) as { scripts?: Record<string, string> }).scripts ?? {};
    expect(Object.keys(scripts).filter((name) => /^(pre|post)?install$|^prepare$/.test(name))).toEqual([]);
    expect(await readFile(join(root, "package.json"), "utf8")).toBe(manifestBeforePack);
    expect(manifestBeforePack).toMatch(/"postinstall":/); // the repository keeps it: workspace members build with it
  });

  it(
    "README's install section, as written, installs the client and its runtime dependencies only",
    async () => {
      const readme = await readFile(join(root, "README.md"), "utf8");
      const section = readme.slice(
        readme.indexOf("## Install\n"),
        readme.indexOf("\n## ", readme.indexOf("## Install\n") + 1),
      );
      const command = /```sh\n(npm install \.\/(\S+\.tgz))\n```/.exec(section);
      expect(command?.[2]).toBe(packed?.filename);
      const app = join(scratch, "readme-install");
      await mkdir(app, { recursive: true });
      await writeFile(join(app, "package.json"), json({ name: "fresh-app", private: true, type: "module" }));
      await cp(join(scratch, packed?.filename ?? ""), join(app, packed?.filename ?? ""));
      const [bin, ...args] = (command?.[1] ?? "").split(" ");
      expect(bin).toBe("npm");
      await npm(args, app);
      const { stdout } = await npm(["ls", "--all", "--parseable"], app);
      const installed = stdout
        .split("\n")
        .filter(Boolean)
        .slice(1)
        .map((path) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length))
        .sort();
      // @noble/hashes: the /redis entry's SHA-1 and SHA-256 without node:crypto (edge runtimes over REST).
      expect(installed).toEqual(
        [pkg.name, "@noble/hashes", "openapi-fetch", "openapi-typescript-helpers", "zod"].sort(),
      );
      await writeFile(
        join(app, "check.mjs"),
        `import { createAudienceClient } from "${pkg.name}";\nconsole.log(typeof createAudienceClient);\n`,
      );
      expect((await run(process.execPath, ["check.mjs"], app)).stdout.trim()).toBe("function");
    },
    SLOW,
  );

  consumerSuite("as a member of an npm workspace", async () => {
    const ws = join(scratch, "workspace");
    const member = join(ws, "packages", "client");
    // The member holds exactly what `npm pack` packs. Its own devDependencies and scripts are its
    // business, not the consumer's: dropping them keeps the install to the real dependencies.
    for (const { path } of packed?.files ?? []) {
      await mkdir(dirname(join(member, path)), { recursive: true });
      await cp(join(root, path), join(member, path));
    }
    const { devDependencies: _dev, scripts: _scripts, ...manifest } = pkg;
    await writeFile(join(member, "package.json"), json(manifest));
    await writeFile(
      join(ws, "package.json"),
      json({ name: "consumer-workspace", private: true, workspaces: ["packages/*"] }),
    );
    const app = join(ws, "packages", "app");
    await writeApp(app, `^${pkg.version}`);
    await npm(["install"], ws);
    return { app, resolved: await realpath(join(ws, "node_modules", pkg.name)), expected: await realpath(member) };
  });

  consumerSuite(
    "installed from the npm pack tarball (isolated install, as pnpm lays it out)",
    async () => {
      const app = join(scratch, "tarball-app");
      await writeApp(app, `file:${join(scratch, packed?.filename ?? "")}`);
      const { stderr } = await npm(["install", "--install-strategy=linked"], app);
      // npm warns about every dependency with an install script (prepare included): none of ours.
      expect(stderr).not.toContain(pkg.name);
      const resolved = await realpath(join(app, "node_modules", pkg.name));
      const manifest = JSON.parse(await readFile(join(resolved, "package.json"), "utf8")) as { version: string };
      expect(manifest.version).toBe(pkg.version);
      // Linked installs keep packages in node_modules/.store; the consumer's link points there.
      return {
        app,
        resolved: resolved.includes(`${join("node_modules", ".store")}`) ? "store" : resolved,
        expected: "store",
      };
    },
    false,
  );
});
