/**
 * Starts the pinned Prism CLI (never a global install) on 127.0.0.1 and a free port, as a mock of
 * generated/openapi.json or as a validating proxy in front of an upstream, and resolves once it
 * answers. Shared by the test global setup, `npm run demo` and `npm run contract:live`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

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

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

export interface PrismProcess {
  url: string;
  stop(): Promise<void>;
}

export interface PrismOptions {
  description?: string;
  startTimeoutMs?: number;
  /** Run `prism proxy` in front of this upstream instead of `prism mock`. */
  upstream?: string;
}

export async function startPrism(options: PrismOptions = {}): Promise<PrismProcess> {
  const port = await freePort();
  const description = options.description ?? join(root, "generated", "openapi.json");
  const bin = join(root, "node_modules", "@stoplight", "prism-cli", "dist", "index.js");
  const mode = options.upstream ? ["proxy", description, options.upstream] : ["mock", description];
  const child: ChildProcess = spawn(process.execPath, [bin, ...mode, "--host", "127.0.0.1", "--port", String(port)], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  child.stderr?.on("data", (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  const url = `http://127.0.0.1:${port}`;
  const stop = (): Promise<void> =>
    new Promise((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once("exit", () => done());
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 2_000).unref();
    });
  const deadline = Date.now() + (options.startTimeoutMs ?? 20_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Prism exited early:\n${output}`);
    try {
      await fetch(`${url}/status/`, { signal: AbortSignal.timeout(1_000) });
      return { url, stop };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await stop();
  throw new Error(`Prism did not start within the timeout:\n${output}`);
}
