/**
 * Fast packaging checks that run with `npm test`: the exported API version is the description's,
 * the CHANGELOG has an entry for the package version, the export map points TypeScript and Node
 * at the build of the two public entries, and the root entry's import graph has no `node:` import.
 * The slow checks (packing, installing, consumers) are in consumers.test.ts.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { API_VERSION } from "../../src/index.ts";
import { PNPM_WORKSPACE_SETTING } from "./consumer-app.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const read = (path: string) => readFileSync(join(root, path), "utf8");
const pkg = JSON.parse(read("package.json")) as {
  version: string;
  exports: Record<string, string | Record<string, string>>;
  files: string[];
  sideEffects: boolean;
  bin?: Record<string, string>;
};

describe("API_VERSION", () => {
  it("is the info.version of the description the client was generated from", () => {
    const merged = JSON.parse(read("generated/openapi.json")) as { info: { version: string } };
    const vendor = parse(read("openapi/audience-intelligence.yaml")) as { info: { version: string } };
    expect(API_VERSION).toBe(merged.info.version);
    expect(API_VERSION).toBe(vendor.info.version);
  });
});

describe("CHANGELOG.md", () => {
  const changelog = read("CHANGELOG.md");
  const releases = [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+[^\]]*)\] - (\d{4}-\d{2}-\d{2})$/gm)];

  it("has an Unreleased section and a dated entry for the package.json version", () => {
    expect(changelog).toMatch(/^## \[Unreleased\]$/m);
    expect(releases.map((m) => m[1])).toContain(pkg.version);
  });

  it("names the API description each release was generated from, and a regeneration under Unreleased", () => {
    const sections = changelog.split(/^## /m).slice(1);
    const generatedFrom = (section: string) => /API description \*\*(\d+\.\d+\.\d+[^*]*)\*\*/.exec(section)?.[1];
    for (const section of sections.filter((s) => !s.startsWith("[Unreleased]"))) {
      expect(
        generatedFrom(section),
        `release "${section.split("\n")[0]}" names no API description version`,
      ).toBeDefined();
    }
    // The newest release is this package.json version; when the description moved on since, the
    // Unreleased section says so.
    const newest = sections.find((s) => !s.startsWith("[Unreleased]")) ?? "";
    expect(newest.startsWith(`[${pkg.version}]`)).toBe(true);
    if (generatedFrom(newest) !== API_VERSION) {
      const unreleased = sections.find((s) => s.startsWith("[Unreleased]")) ?? "";
      expect(generatedFrom(unreleased), "Unreleased should name the regenerated API description").toBe(API_VERSION);
    }
  });
});

describe("package.json exports", () => {
  const entries = {
    ".": "src/index.ts",
    "./node": "src/node/index.ts",
    "./react-query": "src/react-query/index.ts",
    "./mcp": "src/mcp/index.ts",
    "./cloudflare": "src/cloudflare/index.ts",
  } as const;
  /** The entries with a browser build (scripts/bundle-dist.mjs). */
  const BROWSER_BUILD = { ".": true, "./react-query": true } as const;

  it.each(Object.entries(entries))("%s: types first, then the built JavaScript of %s", (subpath, source) => {
    const target = pkg.exports[subpath];
    expect(typeof target).toBe("object");
    const conditions = target as Record<string, string>;
    const built = `./dist/${source.replace(/\.ts$/, "")}`;
    if (subpath in BROWSER_BUILD) {
      // A page and a web worker get the browser build; workerd and the edge runtimes, which are
      // servers that may sign in, the server build (they also match "browser" or "worker").
      expect(Object.keys(conditions)).toEqual(["types", "workerd", "edge-light", "browser", "worker", "default"]);
      for (const server of ["workerd", "edge-light"]) expect(conditions[server]).toBe(`${built}.js`);
      for (const page of ["browser", "worker"])
        expect(conditions[page]).toBe(`./dist/browser/${source.replace(/\.ts$/, "")}.js`);
    } else expect(Object.keys(conditions)).toEqual(["types", "default"]);
    expect(conditions.types).toBe(`${built}.d.ts`);
    expect(conditions.default).toBe(`${built}.js`);
    expect(existsSync(join(root, source))).toBe(true);
  });

  it("ships dist/ and declares no side effects", () => {
    expect(pkg.files).toContain("dist");
    expect(pkg.sideEffects).toBe(false);
    expect(Object.keys(pkg.exports).sort()).toEqual([
      ".",
      "./cloudflare",
      "./coordination",
      "./mcp",
      "./node",
      "./package.json",
      "./react-query",
      "./redis",
      "./testing",
    ]);
  });
});

describe("root entry", () => {
  /**
   * Relative imports of a module, followed transitively; returns every bare or `node:` specifier
   * loaded at run time (`import type`, erased under verbatimModuleSyntax, is not followed).
   */
  function externalImports(entry: string): Map<string, string> {
    const seen = new Set<string>();
    const external = new Map<string, string>();
    const queue = [join(root, entry)];
    while (queue.length) {
      const file = queue.pop() as string;
      if (seen.has(file)) continue;
      seen.add(file);
      const text = readFileSync(file, "utf8");
      const specifiers = [
        ...text.matchAll(
          /(?:^|\n)\s*(?:import|export)\s(?!type\s)[^;]*?from\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)|(?:^|\n)\s*import\s+"([^"]+)"/g,
        ),
      ]
        .map((m) => m[1] ?? m[2] ?? m[3])
        .filter((s): s is string => s !== undefined);
      for (const specifier of specifiers) {
        if (specifier.startsWith(".")) queue.push(resolve(dirname(file), specifier));
        else if (!external.has(specifier)) external.set(specifier, relative(root, file));
      }
    }
    return external;
  }

  it("imports no node: module, directly or through its own files (it must run in browsers and edge runtimes)", () => {
    const external = externalImports("src/index.ts");
    const nodeOnly = [...external].filter(([specifier]) => specifier.startsWith("node:"));
    expect(nodeOnly, "node: imports reachable from src/index.ts").toEqual([]);
    // Only the declared dependencies (and their subpaths) remain.
    const allowed = /^(openapi-fetch|zod)(\/|$)/;
    expect([...external.keys()].filter((s) => !allowed.test(s))).toEqual([]);
  });

  it("carries no Redis code: the coordinator is the /redis entry's, and that entry loads no Redis client (the caller passes one)", () => {
    const root = [...externalImports("src/index.ts").values()];
    expect(root.filter((file) => file.startsWith("src/redis/"))).toEqual([]);
    const redis = [...externalImports("src/redis/index.ts").keys()];
    expect(redis.filter((s) => /^(ioredis|redis|@redis\/)/.test(s))).toEqual([]);
  });

  it("the react-query entry loads React and TanStack Query (optional peers) and nothing else new; the root entry neither", () => {
    const binding = [...externalImports("src/react-query/index.ts").keys()];
    expect(binding.filter((s) => !/^(openapi-fetch|zod|react|@tanstack\/react-query)(\/|$)/.test(s))).toEqual([]);
    expect(binding).toEqual(expect.arrayContaining(["react", "@tanstack/react-query"]));
    expect([...externalImports("src/index.ts").keys()].filter((s) => /react/.test(s))).toEqual([]);
  });

  it("the mcp entry and its bin load the MCP SDK (an optional peer) and nothing else new; the root entry neither", () => {
    for (const entry of ["src/mcp/index.ts", "src/mcp/bin.ts"]) {
      const mcp = [...externalImports(entry).keys()];
      expect(mcp.filter((s) => !/^(openapi-fetch|zod|@modelcontextprotocol\/sdk)(\/|$)|^node:/.test(s))).toEqual([]);
      expect(mcp.some((s) => s.startsWith("@modelcontextprotocol/sdk/"))).toBe(true);
    }
    const root = externalImports("src/index.ts");
    expect([...root.keys()].filter((s) => s.includes("modelcontextprotocol"))).toEqual([]);
    expect([...root.values()].filter((file) => file.startsWith("src/mcp/"))).toEqual([]);
    expect(pkg.bin).toEqual({ "audience-intelligence-mcp": "./dist/src/mcp/bin.js" });
  });

  it("the node subpath is where the node: imports are", () => {
    const external = externalImports("src/node/index.ts");
    expect([...external.keys()].some((s) => s.startsWith("node:"))).toBe(true);
  });
});

describe("runtimes, floors and workspaces: what README.md, docs/PACKAGING.md and package.json say is what CI runs", () => {
  const readme = read("README.md");
  const packaging = read("docs/PACKAGING.md");
  const pinned = JSON.parse(read("test/runtimes/runtimes.json")) as Record<string, string>;
  const manifest = JSON.parse(read("package.json")) as {
    engines: { node: string };
    peerDependencies: Record<string, string>;
    peerDependenciesMeta: Record<string, { optional?: boolean }>;
  };

  it("the Node floor is the one the matrix runs, in package.json, README.md and docs/PACKAGING.md", () => {
    expect(manifest.engines.node).toBe(`>=${pinned.node20floor}`);
    expect(readme).toContain(`**Node ≥ ${pinned.node20floor?.replace(/\.0$/, "")}**`);
    expect(packaging).toContain(`**Node ≥ ${pinned.node20floor?.replace(/\.0$/, "")}**`);
  });

  it("the TypeScript floor is the one the consumers type-check with, an optional peer dependency", () => {
    const floor = pinned.typescriptFloor?.split(".").slice(0, 2).join(".");
    expect(manifest.peerDependencies.typescript).toBe(`>=${floor}`);
    expect(manifest.peerDependenciesMeta.typescript?.optional).toBe(true);
    expect(readme).toContain(`**TypeScript ≥ ${floor}**`);
    expect(packaging).toContain(`**TypeScript ≥ ${floor}**`);
  });

  it("the runtime and workspace tables list every pinned version", () => {
    for (const [name, version] of Object.entries(pinned)) {
      if (name.startsWith("$")) continue;
      expect(packaging, `${name} ${version}`).toContain(version);
    }
    for (const [name, row] of [
      ["workerd", "| workerd |"],
      ["bun", "| Bun |"],
      ["deno", "| Deno |"],
      ["node22", "| Node 22 |"],
      ["node24", "| Node 24 |"],
      ["node26", "| Node 26 (the latest) |"],
      ["node20floor", "| Node (the floor) |"],
      ["typescriptFloor", "| TypeScript (the floor) |"],
      ["typescriptLatest", "| TypeScript (the latest) |"],
    ] as const)
      expect(packaging, name).toContain(`${row} ${pinned[name]} |`);
  });

  it("docs/PACKAGING.md names the pnpm-workspace.yaml setting the workspace test uses", () => {
    expect(packaging).toContain(`\`\`\`yaml\n${PNPM_WORKSPACE_SETTING}\`\`\``);
  });
});
