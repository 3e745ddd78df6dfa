/**
 * scripts/bundle-size.ts (BENCHMARKS.md's bundle rows): what a browser app loads up front holds the
 * options check, the client object, `unwrap` and the error classes; the engine (session,
 * transport, openapi-fetch, zod) is a chunk loaded on first use.
 */
import { describe, expect, it } from "vitest";
import { BROWSER_SWAPS, browserSibling } from "../../scripts/browser-build.mjs";
import {
  BROWSER_MINIMUM_TARGET_KB,
  MINIMUM_TARGET_KB,
  measureBrowserBuild,
  measureBundles,
  measureReactQuery,
  REACT_QUERY_BUDGET_KB,
  TARGET_KB,
} from "../../scripts/bundle-size.ts";

const ENGINE = [
  "src/engine.ts",
  "src/session/session.ts",
  "src/transport/create-transport.ts",
  "src/transport/pacer.ts",
  "openapi-fetch",
  "zod",
];

describe("the browser bundle up front", () => {
  it("meets the up-front targets and leaves the engine to a chunk loaded on first use", async () => {
    const { entry, minimum } = await measureBundles();
    expect(minimum.gzip).toBeLessThanOrEqual(MINIMUM_TARGET_KB * 1024);
    expect(entry.gzip).toBeLessThanOrEqual(TARGET_KB * 1024);
    for (const size of [entry, minimum]) {
      expect(size.modules.filter((m) => ENGINE.some((e) => m.includes(e)))).toEqual([]);
      expect(size.modules).toContain("src/create-client.ts");
      expect(size.lazyGzip).toBeGreaterThan(0);
    }
    expect(minimum.modules).toContain("src/unwrap.ts");
  });

  it("counts what a first read and validated write load: the engine and the request schemas, not the optional chunks", async () => {
    const { minimum } = await measureBundles();
    // The engine chunk alone is over 20 KB; the drift checker, metrics and shared session are left out.
    expect(minimum.firstCallsGzip).toBeGreaterThan(20 * 1024);
    expect(minimum.firstCallsGzip).toBeLessThan(minimum.lazyGzip);
  });
});

describe("the browser build (browser and worker conditions)", () => {
  /** What a page uses, which the browser build keeps: retries, pace, setup guards and autosave, validation, redaction, typed errors, the provider. */
  const KEPT = [
    ...ENGINE,
    "src/transport/retry-policy.ts",
    "src/coordination/pacing-rules.ts",
    "src/workflows/setup-guards.ts",
    "src/workflows/autosave.ts",
    "src/guards/validate-request.ts",
    "src/internal/redact.ts",
    "src/errors/api-error.ts",
    "src/session/provider.ts",
  ];

  it("up front, an app using createAudienceClient + unwrap meets its target: the redactor and the query checks load with the engine", async () => {
    const { minimum } = await measureBrowserBuild();
    expect(minimum.gzip).toBeLessThanOrEqual(BROWSER_MINIMUM_TARGET_KB * 1024);
    // Code that runs only once a call is made (the client's redactor, the setup refusal of an
    // answer, the query checks) is not loaded up front; the option checks are (a bad option throws
    // from createAudienceClient, test/unit/options.test.ts).
    const callTime = ["src/internal/redact.ts", "src/errors/from-answer.ts", "src/guards/query-values.ts"];
    expect(minimum.modules.filter((m) => callTime.includes(m))).toEqual([]);
    expect(minimum.allModules).toEqual(expect.arrayContaining(callTime));
    expect(minimum.modules).toEqual(expect.arrayContaining(["src/options/auth.ts", "src/options/transport.ts"]));
  });

  it("leaves out the server-only modules, keeps what a page uses, while the server build keeps everything", async () => {
    const [browser, server] = await Promise.all([measureBrowserBuild(), measureBundles()]);
    for (const size of [browser.entry, browser.minimum]) {
      expect(size.allModules.filter((m) => BROWSER_SWAPS.includes(m))).toEqual([]);
      for (const kept of KEPT)
        expect(
          size.allModules.some((m) => m.includes(kept)),
          kept,
        ).toBe(true);
      expect(size.modules.filter((m) => ENGINE.some((e) => m.includes(e)))).toEqual([]);
    }
    // (log-env.browser.ts only returns undefined, which the minifier inlines: no bytes of its own.)
    const inlined = ["src/options/log-env.ts"];
    expect(browser.minimum.allModules).toEqual(
      expect.arrayContaining(BROWSER_SWAPS.filter((m) => !inlined.includes(m)).map(browserSibling)),
    );
    // (server-only.ts is a no-op in the server build, which the minifier drops.)
    expect(server.minimum.allModules).toEqual(
      expect.arrayContaining(["src/session/auth-exchange.ts", "src/session/failure-budget.ts"]),
    );
    expect(server.minimum.allModules.filter((m) => m.endsWith(".browser.ts"))).toEqual([]);
    expect(browser.minimum.firstCallsGzip).toBeLessThan(server.minimum.firstCallsGzip);
  });
});

describe("the request validators of each build", () => {
  it("the browser build validates with the zod-free sibling (the same schemas, emitted over zod-subset.ts), the server build with zod", async () => {
    const [browser, server] = await Promise.all([measureBrowserBuild(), measureBundles()]);
    const firstCalls = (size: typeof server.minimum) =>
      size.chunks.filter((c) => c.loads === "first calls").flatMap((c) => c.modules.map(([m]) => m));
    const browserFirst = firstCalls(browser.minimum);
    expect(browserFirst).toEqual(
      expect.arrayContaining(["generated/validators.browser.ts", "src/guards/zod-subset.ts"]),
    );
    expect(browserFirst.filter((m) => m.includes("node_modules/zod/") || m === "generated/validators.ts")).toEqual([]);
    const serverFirst = firstCalls(server.minimum);
    expect(serverFirst).toContain("generated/validators.ts");
    expect(serverFirst.some((m) => m.includes("node_modules/zod/"))).toBe(true);
    expect(serverFirst.filter((m) => m.endsWith(".browser.ts") || m === "src/guards/zod-subset.ts")).toEqual([]);
  });
});

describe("what a first read and validated write leave out", () => {
  /** Loaded only with an option (`tracer`, `onDrift`, `meter`, `tokenStore`, a coordinator) or a rare case (an ambiguous write's check, a 3xx). */
  const LATER = [
    "src/transport/trace-policy.ts",
    "src/drift/drift-watch.ts",
    "src/transport/metrics-policy.ts",
    "src/session/shared-session.ts",
    "src/session/session-cache.ts",
    "src/transport/write-checks.ts",
    "src/transport/redirect-policy.ts",
  ];

  it("keeps in chunks of their own, in both builds, what only an option or a rare case runs", async () => {
    const [browser, server] = await Promise.all([measureBrowserBuild(), measureBundles()]);
    for (const size of [browser.minimum, server.minimum]) {
      const firstCalls = size.chunks.filter((c) => c.loads !== "later").flatMap((c) => c.modules.map(([m]) => m));
      expect(firstCalls).toContain("src/create-client.ts");
      expect(firstCalls).toContain("src/engine.ts");
      expect(firstCalls.filter((m) => LATER.includes(m))).toEqual([]);
      expect(size.allModules).toEqual(expect.arrayContaining(LATER));
    }
  });
});

describe("the react-query binding", () => {
  it("adds at most its budget to a client app, keeps the engine lazy, and bundles none of React or TanStack Query", async () => {
    const { with: bundled, addedGzip } = await measureReactQuery();
    expect(addedGzip).toBeLessThanOrEqual(REACT_QUERY_BUDGET_KB * 1024);
    expect(bundled.modules).toContain("src/react-query/create-query-hooks.ts");
    expect(bundled.modules.filter((m) => ENGINE.some((e) => m.includes(e)))).toEqual([]);
    expect(bundled.modules.filter((m) => /node_modules\/(react|@tanstack)/.test(m))).toEqual([]);
  });
});
