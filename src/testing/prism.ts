/**
 * Runs Prism (`@stoplight/prism-cli`, an optional peer dependency) as a child process on 127.0.0.1
 * and a free port, as a mock of a description or as a validating proxy in front of an upstream,
 * and resolves once it listens. The one implementation behind `startMockApi`, the package's own
 * contract tests, `npm run demo` and `npm run contract:live`. Node only.
 *
 * Prism matches the description's paths without their server prefix, while a client's base
 * address includes it (Section 1, 9.1: `https://<host>/api/v3`, media under `/api/media`). So
 * Prism listens on a private port, and a small front on a public one strips the prefix: the
 * address handed out is `http://127.0.0.1:<port>/api/v3`, as a real environment's would be.
 */
import { readFileSync } from "node:fs";
import { createServer as createHttpServer, request as httpRequest, type Server } from "node:http";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { SPEC } from "../limits.ts";
import { type PrismChild, spawnPrism } from "./prism-child.ts";

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

/** The path prefixes of the main API and of the media host (Section 1, 9.1). */
const PREFIXES = [SPEC.apiVersionPath, SPEC.mediaPath] as const;

export interface PrismProcess {
  /** The base address for a client: `http://127.0.0.1:<port>/api/v3` (media under `/api/media`). */
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

/** Prism on a private 127.0.0.1 port, without a front: what `startMockApi` puts its own front before. */
async function startPrismBackend(options: PrismOptions = {}): Promise<PrismChild & { port: number }> {
  const bin = locatePrism();
  const description = options.description ?? descriptionPath();
  const mode = options.upstream ? ["proxy", description, options.upstream] : ["mock", description];
  // Another process may take the free port before Prism does: then Prism exits and we try another.
  for (let tries = 1; ; tries++) {
    const port = await freePort();
    try {
      const args = [...mode, "--host", "127.0.0.1", "--port", String(port)];
      return { ...(await spawnPrism(bin, args, port, options.startTimeoutMs ?? 30_000)), port };
    } catch (error) {
      if (tries >= 3 || !/EADDRINUSE/.test(String((error as Error).message))) throw error;
    }
  }
}

export async function startPrism(options: PrismOptions = {}): Promise<PrismProcess> {
  const inner = await startPrismBackend(options);
  let front: Server;
  try {
    front = await startFront(inner.port);
  } catch (error) {
    await inner.stop();
    throw error;
  }
  const { port } = front.address() as { port: number };
  let closed: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    closed ??= (async () => {
      front.closeAllConnections();
      await Promise.all([new Promise((done) => front.close(() => done(undefined))), inner.stop()]);
    })();
    return closed;
  };
  return { url: `http://127.0.0.1:${port}${PREFIXES[0]}`, stop };
}

/** The public front: strips the API or media prefix and forwards the request to Prism as is. */
async function startFront(prismPort: number): Promise<Server> {
  const server = createHttpServer((req, res) => {
    const raw = req.url ?? "/";
    const prefix = PREFIXES.find((p) => raw === p || raw.startsWith(`${p}/`) || raw.startsWith(`${p}?`));
    const path = prefix ? raw.slice(prefix.length) || "/" : raw;
    const headers = { ...req.headers, host: `127.0.0.1:${prismPort}` };
    const upstream = httpRequest(
      { host: "127.0.0.1", port: prismPort, method: req.method, path, headers },
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
    server.listen(0, "127.0.0.1", () => resolve());
  });
  server.unref(); // like Prism itself: a test run that forgets stop() does not hang on it
  return server;
}
