/**
 * Starts the pinned Prism CLI (never a global install) on 127.0.0.1 and a free port, serving
 * generated/openapi.json, and resolves once it answers. Shared by the test global setup and
 * `npm run demo`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./free-port.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

export interface PrismProcess {
  url: string;
  stop(): Promise<void>;
}

export async function startPrism(options: { description?: string; startTimeoutMs?: number } = {}): Promise<PrismProcess> {
  const port = await freePort();
  const description = options.description ?? join(root, "generated", "openapi.json");
  const bin = join(root, "node_modules", "@stoplight", "prism-cli", "dist", "index.js");
  const child: ChildProcess = spawn(process.execPath, [bin, "mock", "--host", "127.0.0.1", "--port", String(port), description], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
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
      await fetch(`${url}/status/`);
      return { url, stop };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await stop();
  throw new Error(`Prism did not start within the timeout:\n${output}`);
}
