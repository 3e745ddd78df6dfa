/**
 * Issue 7, requirement 2: the package as other TypeScript repositories consume it.
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
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { API_VERSION } from "../../src/index.ts";
import { makeZip, minimalXlsxEntries } from "../support/make-zip.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const pkg = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as Record<string, unknown> & {
  name: string;
  version: string;
  devDependencies: Record<string, string>;
};
const enabled = process.env.PACKAGING_TESTS === "1";
const SLOW = 180_000;

interface Run {
  stdout: string;
  stderr: string;
}

/** Runs a command; rejects with its output when it fails. Nested npm gets no npm_* variables of ours. */
function run(file: string, args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  return new Promise((done, fail) => {
    execFile(
      file,
      args,
      { cwd, env: { ...clean, ...env }, maxBuffer: 64 * 1024 * 1024, timeout: SLOW },
      (error, stdout, stderr) => {
        if (error)
          fail(new Error(`${[file, ...args].join(" ")} (in ${cwd}) failed:\n${stdout}\n${stderr}`, { cause: error }));
        else done({ stdout, stderr });
      },
    );
  });
}

const npm = (args: readonly string[], cwd: string) =>
  run("npm", [...args, "--prefer-offline", "--no-audit", "--no-fund"], cwd);
const tsc = (project: string, cwd: string) =>
  run(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", project], cwd);

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** The consumer program: root entry and `./node` subpath, typed calls, real requests. */
const MAIN_TS = `import {
  API_VERSION,
  ValidationError,
  createAudienceClient,
  isAudienceError,
  listEvents,
  unwrap,
  type components,
  type paths,
} from "${pkg.name}";
import { ingestExcelFile } from "${pkg.name}/node";
import { type MockApi, startMockApi } from "${pkg.name}/testing";

// Consumers need no @types/node for this package; this program reads two variables of its own.
declare const process: { env: Record<string, string | undefined> };

type Event = components["schemas"]["Event"];
type EventBody = paths["/events/{eid}"]["get"]["responses"][200]["content"]["application/json"];

const baseUrl = process.env.PRISM_URL ?? "";
const client = createAudienceClient({ baseUrl, mediaUrl: baseUrl, credentials: { username: "demo", password: "demo-password" } });

const event: Event = unwrap(await client.GET("/events/{eid}", { params: { path: { eid: "evt-1001" } } }));
const body: EventBody = event;

const ids: string[] = [];
for await (const listed of listEvents(client, { maxItems: 3 })) ids.push(listed.id);

await ingestExcelFile(client, "evt-1001", process.env.XLSX_PATH ?? "");
const ingested = true; // no error: the workbook was read from its path, checked and uploaded

let refused = "";
try {
  await ingestExcelFile(client, "evt-1001", "");
} catch (error) {
  if (isAudienceError(error) && error instanceof ValidationError) refused = error.name;
}

/** Never called: the declarations are the real ones, not \`any\`, so each line is a type error. */
export function typeErrors(): void {
  // @ts-expect-error: not a path of the description
  void client.GET("/no/such/path/");
  // @ts-expect-error: eid is a required path parameter
  void client.GET("/events/{eid}", { params: { path: {} } });
  // @ts-expect-error: an Event's id is a string
  const id: number = event.id;
  void id;
}

// The test kit: a mock of its own, for a client made with an access token only.
let mocked = "";
if (process.env.TEST_KIT === "1") {
  const mock: MockApi = await startMockApi();
  try {
    const tokenClient = createAudienceClient({
      baseUrl: mock.baseUrl,
      mediaUrl: mock.mediaUrl,
      session: { accessToken: "test-token" },
      partnerId: "partner-id-test",
    });
    mocked = unwrap(await tokenClient.GET("/events/{eid}", { params: { path: { eid: "evt-1001" } } })).id;
  } finally {
    await mock.close();
  }
}

console.log(JSON.stringify({ apiVersion: API_VERSION, event: body.id, ids, partner: client.partnerId(), ingested, refused, mocked }));
`;

/** Root entry only, as a browser app would import it. */
const BROWSER_TS = `import { API_VERSION, createAudienceClient, getPartners } from "${pkg.name}";

export function partnersOf(baseUrl: string, accessToken: string) {
  return getPartners(createAudienceClient({ baseUrl, session: { accessToken } }));
}
export { API_VERSION };
`;

const compilerOptions = {
  target: "ES2022",
  lib: ["ES2023", "DOM", "DOM.Iterable"],
  types: [],
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: false,
};

/** Writes the consumer app into `dir` (its package.json included). */
async function writeApp(dir: string, dependency: string): Promise<void> {
  await mkdir(join(dir, "src"), { recursive: true });
  await mkdir(join(dir, "test"), { recursive: true });
  // The test kit's peer (Prism) and the README's test runner, at this repository's versions.
  const devDependencies = Object.fromEntries(
    ["@stoplight/prism-cli", "vitest"].map((name) => [name, pkg.devDependencies[name] ?? ""]),
  );
  await writeFile(
    join(dir, "package.json"),
    json({
      name: "consumer-app",
      private: true,
      type: "module",
      dependencies: { [pkg.name]: dependency },
      devDependencies,
    }),
  );
  await writeFile(join(dir, "src", "main.ts"), MAIN_TS);
  // README, "Testing your code": the example as a consumer pastes it.
  await cp(join(root, "test", "testing", "readme-example.test.ts"), join(dir, "test", "events.test.ts"));
  await writeFile(join(dir, "src", "browser.ts"), BROWSER_TS);
  await writeFile(
    join(dir, "tsconfig.bundler.json"),
    json({
      compilerOptions: { ...compilerOptions, module: "ESNext", moduleResolution: "bundler", noEmit: true },
      include: ["src"],
    }),
  );
  await writeFile(
    join(dir, "tsconfig.nodenext.json"),
    json({
      compilerOptions: {
        ...compilerOptions,
        module: "NodeNext",
        moduleResolution: "NodeNext",
        rootDir: "src",
        outDir: "out/nodenext",
      },
      include: ["src"],
    }),
  );
}

let scratch = "";
let xlsxPath = "";
let packed: { filename: string; files: { path: string }[] } | undefined;

beforeAll(async () => {
  if (!enabled) return;
  scratch = await mkdtemp(join(tmpdir(), "ai-consumers-"));
  xlsxPath = join(scratch, "book.xlsx");
  await writeFile(xlsxPath, makeZip(minimalXlsxEntries()));
  const { stdout } = await npm(["pack", "--json", "--pack-destination", scratch], root);
  // npm prints the prepack build's output before the JSON array.
  packed = (JSON.parse(stdout.slice(stdout.indexOf("\n[") + 1)) as (typeof packed & object)[])[0];
}, SLOW);

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

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

    const expectRun = (stdout: string) => {
      const result = JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as Record<string, unknown>;
      expect(result).toMatchObject({
        apiVersion: API_VERSION,
        event: "evt-1001",
        ingested: true,
        refused: "ValidationError",
        mocked: testKit ? "evt-1001" : "",
      });
      expect((result.ids as string[]).length).toBeGreaterThan(0);
      expect(result.partner).toMatch(/^partner-id-/);
    };

    it(
      "runs against Prism, compiled by tsc (nodenext) and run by Node",
      async () => {
        await tsc("tsconfig.nodenext.json", app);
        const { stdout } = await run(process.execPath, [join("out", "nodenext", "main.js")], app, {
          PRISM_URL: inject("prismUrl"),
          XLSX_PATH: xlsxPath,
          TEST_KIT: testKit ? "1" : "0",
        });
        expectRun(stdout);
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
        expectRun(stdout);
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
      "bundles the root entry for the browser: no node: import, nothing of ./node",
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
        expect(inputs.some((input) => /dist\/src\/index\.js$/.test(input))).toBe(true);
      },
      SLOW,
    );
  });
}

describe.skipIf(!enabled)("consumers (npm run test:consumers)", () => {
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
      await npm(["install", "--install-strategy=linked"], app);
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
