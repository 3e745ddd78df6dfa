/**
 * Starts the pinned Prism CLI (never a global install) on 127.0.0.1 and a free port, as a mock of
 * generated/openapi.json or as a validating proxy in front of an upstream, and resolves once it
 * answers. Shared by the test global setup, `npm run demo` and `npm run contract:live`.
 *
 * Prism matches the description's paths without their server prefix, while a client's base
 * address includes it (Section 1, 9.1: `https://<host>/api/v3`, media under `/api/media`). So
 * Prism listens on a private port, and a small front on the public one strips the prefix: the
 * address handed out is `http://127.0.0.1:<port>/api/v3`, as a real environment's would be.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer as createHttpServer, request as httpRequest, type Server } from "node:http";
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

/** The path prefixes of the main API and of the media host (Section 1, 9.1). */
const PREFIXES = ["/api/v3", "/api/media"] as const;

export interface PrismProcess {
  /** The base address for a client: `http://127.0.0.1:<port>/api/v3` (media under `/api/media`). */
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
  const publicPort = await freePort();
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
  const internal = `http://127.0.0.1:${port}`;
  const front = await startFront(port, publicPort);
  const url = `http://127.0.0.1:${publicPort}${PREFIXES[0]}`;
  const stopPrism = (): Promise<void> =>
    new Promise((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once("exit", () => done());
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 2_000).unref();
    });
  const stop = async (): Promise<void> => {
    front.closeAllConnections();
    await Promise.all([new Promise((done) => front.close(() => done(undefined))), stopPrism()]);
  };
  const deadline = Date.now() + (options.startTimeoutMs ?? 20_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`Prism exited early:\n${output}`);
    }
    try {
      await fetch(`${internal}/status/`, { signal: AbortSignal.timeout(1_000) });
      return { url, stop };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await stop();
  throw new Error(`Prism did not start within the timeout:\n${output}`);
}

/** The public front: strips the API or media prefix and forwards the request to Prism as is. */
async function startFront(prismPort: number, publicPort: number): Promise<Server> {
  const server = createHttpServer((req, res) => {
    const raw = req.url ?? "/";
    const prefix = PREFIXES.find((p) => raw === p || raw.startsWith(`${p}/`) || raw.startsWith(`${p}?`));
    const path = prefix ? raw.slice(prefix.length) || "/" : raw;
    const upstream = httpRequest(
      {
        host: "127.0.0.1",
        port: prismPort,
        method: req.method,
        path,
        headers: { ...req.headers, host: `127.0.0.1:${prismPort}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", (error) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`prism front: ${error.message}`);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(publicPort, "127.0.0.1", () => resolve());
  });
  return server;
}
