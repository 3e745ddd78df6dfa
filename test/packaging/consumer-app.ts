/**
 * The consumer app of the packaging tests (consumers.test.ts, workspaces.test.ts): a TypeScript
 * program that uses the root entry and the `./node` subpath as another repository would, its two
 * tsconfigs (bundler and nodenext, skipLibCheck off, no @types/node), and what its run must print.
 */
import { execFile } from "node:child_process";
import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { API_VERSION } from "../../src/index.ts";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const pkg = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as Record<string, unknown> & {
  name: string;
  version: string;
  devDependencies: Record<string, string>;
};
export const SLOW = 180_000;

/**
 * What a pnpm workspace holding this package as a member needs in its pnpm-workspace.yaml (pnpm
 * approves build scripts only at the workspace root): docs/PACKAGING.md quotes it verbatim.
 */
export const PNPM_WORKSPACE_SETTING = `allowBuilds:
  esbuild: false
  "@scarf/scarf": false
  msw: false
  workerd: false
`;

export interface Run {
  stdout: string;
  stderr: string;
}

/** Runs a command; rejects with its output when it fails. Nested npm gets no npm_* variables of ours. */
export function run(
  file: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<Run> {
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

export const npm = (args: readonly string[], cwd: string) =>
  run("npm", [...args, "--prefer-offline", "--no-audit", "--no-fund"], cwd);
export const tsc = (project: string, cwd: string) =>
  run(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", project], cwd);

export const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

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
export async function writeApp(
  dir: string,
  dependency: string,
  extraDevDependencies: Record<string, string> = {},
): Promise<void> {
  await mkdir(join(dir, "src"), { recursive: true });
  await mkdir(join(dir, "test"), { recursive: true });
  // The test kit's peer (Prism) and the README's test runner, at this repository's versions.
  const devDependencies = Object.fromEntries(
    ["@stoplight/prism-cli", "vitest"].map((name) => [name, pkg.devDependencies[name] ?? ""]),
  );
  Object.assign(devDependencies, extraDevDependencies);
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

/**
 * What the consumer program prints when it ran against Prism; `testKit`: it also started a mock of
 * its own through `./testing` (TEST_KIT=1).
 */
export function expectRun(stdout: string, testKit = true): void {
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
}
