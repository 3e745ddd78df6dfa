/**
 * Runs Prism (`@stoplight/prism-cli`, an optional peer dependency) as a child process on 127.0.0.1
 * and a free port, as a mock of a description or as a validating proxy in front of an upstream,
 * and resolves once it listens. The one implementation behind `startMockApi`, the package's own
 * contract tests, `npm run demo` and `npm run contract:live`. Node only.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { connect, createServer } from "node:net";
import { dirname, join } from "node:path";

const PACKAGE = "@audience-intelligence/client";
const PRISM = "@stoplight/prism-cli";

/** The package's own package.json, found the way Node finds the package (in src/ and in dist/ alike). */
function packageJsonPath(): string {
  return createRequire(import.meta.url).resolve(`${PACKAGE}/package.json`);
}

/** The package's merged description (generated/openapi.json, shipped in the package). */
const descriptionPath = (): string => join(dirname(packageJsonPath()), "generated", "openapi.json");

/**
 * Prism's CLI script, resolved from `from` (a file path: the package's package.json by default), as
 * Node would resolve an import there: a peer dependency is found where the consumer installed it.
 */
export function locatePrism(from: string = packageJsonPath()): string {
  let manifest: string;
  try {
    manifest = createRequire(from).resolve(`${PRISM}/package.json`);
  } catch {
    const range = peerRange();
    throw new Error(
      `${PACKAGE}/testing needs ${PRISM}, an optional peer dependency that is not installed. ` +
        `Add it to your devDependencies: npm install --save-dev ${PRISM}@${range} ` +
        `(pnpm add -D ${PRISM}@${range}, yarn add -D ${PRISM}@${range}).`,
    );
  }
  const { bin } = JSON.parse(readFileSync(manifest, "utf8")) as { bin: string | Record<string, string> };
  return join(dirname(manifest), typeof bin === "string" ? bin : (bin.prism ?? ""));
}

/** The version range of Prism this package declares (its peerDependencies). */
function peerRange(): string {
  try {
    const manifest = JSON.parse(readFileSync(packageJsonPath(), "utf8")) as {
      peerDependencies?: Record<string, string>;
    };
    return manifest.peerDependencies?.[PRISM] ?? "5";
  } catch {
    return "5";
  }
}

/** A port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

export interface PrismProcess {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Stops Prism (SIGTERM, then SIGKILL after 2 s); resolves once it has exited. Idempotent. */
  stop(): Promise<void>;
}

export interface PrismOptions {
  /** Description file. @default the package's generated/openapi.json */
  description?: string;
  /** @default 30000 */
  startTimeoutMs?: number;
  /** Run `prism proxy` in front of this upstream instead of `prism mock`. */
  upstream?: string;
}

export async function startPrism(options: PrismOptions = {}): Promise<PrismProcess> {
  const bin = locatePrism();
  const description = options.description ?? descriptionPath();
  const mode = options.upstream ? ["proxy", description, options.upstream] : ["mock", description];
  // Another process may take the free port before Prism does: then Prism exits and we try another.
  for (let tries = 1; ; tries++) {
    const port = await freePort();
    try {
      return await spawnPrism(bin, [...mode, "--host", "127.0.0.1", "--port", String(port)], port, options);
    } catch (error) {
      if (tries >= 3 || !/EADDRINUSE/.test(String((error as Error).message))) throw error;
    }
  }
}

async function spawnPrism(bin: string, args: string[], port: number, options: PrismOptions): Promise<PrismProcess> {
  const child: ChildProcess = spawn(process.execPath, [bin, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  // A test run that forgets stop() must neither hang on Prism nor leave it running.
  const kill = (): void => void child.kill("SIGKILL");
  process.once("exit", kill);
  child.unref();
  for (const stream of [child.stdout, child.stderr]) (stream as unknown as { unref?: () => void })?.unref?.();
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const stop = async (): Promise<void> => {
    process.off("exit", kill);
    if (child.exitCode === null && child.signalCode === null) {
      child.ref(); // keep the process alive until Prism has exited (it was unref'd after spawn)
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 2_000).unref();
    }
    await exited;
  };
  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      process.off("exit", kill);
      throw new Error(`Prism exited before it listened:\n${output}`);
    }
    if (await listening(port)) return { url: `http://127.0.0.1:${port}`, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`Prism did not listen within ${options.startTimeoutMs ?? 30_000} ms:\n${output}`);
}

/** Whether something accepts connections on the port (Prism listens once the description is loaded). */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
