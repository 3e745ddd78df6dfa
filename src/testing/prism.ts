/**
 * Finds Prism (`@stoplight/prism-cli`, an optional peer dependency) and runs it as a mock of a
 * description on 127.0.0.1 and a free port. Node only.
 *
 * Prism matches the description's paths without their server prefix, while a client's base
 * address includes it (Section 1, 9.1: `https://<host>/api/v3`, media under `/api/media`). So
 * Prism listens on a private port, and the mock's front (mock-server.ts) on a public one strips
 * the prefix: the address handed out is `http://127.0.0.1:<port>/api/v3`, as a real environment's.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { type PrismChild, spawnPrism } from "./prism-child.ts";

const PACKAGE = "@audience-intelligence/client";
const PRISM = "@stoplight/prism-cli";

/** The package's own package.json, found the way Node finds the package (in src/ and in dist/ alike). */
function packageJsonPath(): string {
  return createRequire(import.meta.url).resolve(`${PACKAGE}/package.json`);
}

/** The package's merged description (generated/openapi.json, shipped in the package). */
export const descriptionPath = (): string => join(dirname(packageJsonPath()), "generated", "openapi.json");

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

export interface PrismOptions {
  /** Description file. @default the package's generated/openapi.json */
  description?: string;
  /** @default 30000 */
  startTimeoutMs?: number;
}

/** Prism on a private 127.0.0.1 port; `startMockApi` puts its front (mock-server.ts) before it. */
export async function startPrismBackend(options: PrismOptions = {}): Promise<PrismChild & { port: number }> {
  const bin = locatePrism();
  const description = options.description ?? descriptionPath();
  // Another process may take the free port before Prism does: then Prism exits and we try another.
  for (let tries = 1; ; tries++) {
    const port = await freePort();
    try {
      const args = ["mock", description, "--host", "127.0.0.1", "--port", String(port)];
      return { ...(await spawnPrism(bin, args, port, options.startTimeoutMs ?? 30_000)), port };
    } catch (error) {
      if (tries >= 3 || !/EADDRINUSE/.test(String((error as Error).message))) throw error;
    }
  }
}
