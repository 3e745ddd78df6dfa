import { afterEach, describe, expect, it, vi } from "vitest";
import { createAudienceClient } from "../../src/index.ts";
import { CLIENT_DEFAULTS } from "../../src/limits.ts";

const credentials = { username: "u", password: "p-secret-1" };
const base = "https://api.example.test/api/v3";

describe("options are normalized once", () => {
  afterEach(() => vi.unstubAllGlobals());

  it.each([
    [{ baseUrl: "" }, /"baseUrl"/],
    [{ baseUrl: "http://api.example.test/api/v3" }, /"baseUrl" must use https/],
    [{ baseUrl: "not a url" }, /"baseUrl" is not a valid absolute URL/],
    [{ baseUrl: base, maxConcurrency: 9 }, /"maxConcurrency" must be at most 8/],
    [{ baseUrl: base, maxConcurrency: 0 }, /"maxConcurrency" must be a positive integer/],
    [{ baseUrl: base, timeoutMs: Number.NaN }, /"timeoutMs"/],
    [{ baseUrl: base, retry: { baseDelayMs: -1 } }, /"retry.baseDelayMs"/],
    [{ baseUrl: base, retry: { rateLimitDelayMs: [10, 5] } }, /"retry.rateLimitDelayMs"/],
    [{ baseUrl: base, adPlatform: ".." }, /"adPlatform"/],
    [{ baseUrl: base, adPlatform: "%2e%2e" }, /"adPlatform" must not be '\.' or '\.\.'/],
    [{ baseUrl: base, adPlatform: "%2E." }, /"adPlatform" must not be '\.' or '\.\.'/],
    [{ baseUrl: base, adPlatform: "meta%zz" }, /"adPlatform" must not contain a malformed percent-escape/],
    [{ baseUrl: base, maxPageLimit: 1001 }, /"maxPageLimit" must be at most 1000/],
    [{ baseUrl: base, mediaUrl: "ftp://x" }, /"mediaUrl"/],
  ])("refuses %j with a TypeError naming the option", (extra, message) => {
    expect(() => createAudienceClient({ credentials, ...extra } as never)).toThrow(TypeError);
    expect(() => createAudienceClient({ credentials, ...extra } as never)).toThrow(message);
  });

  // Section 1, 9.1: the base address includes the version segment.
  it.each([
    "https://api.example.test/",
    "https://api.example.test",
    "https://api.example.test/api",
    "https://api.example.test/api/v2",
    "https://api.example.test/api/v3/events",
  ])("refuses baseUrl %s: it must end with /api/v3, and the message shows the expected form", (baseUrl) => {
    expect(() => createAudienceClient({ credentials, baseUrl })).toThrow(TypeError);
    expect(() => createAudienceClient({ credentials, baseUrl })).toThrow(
      /"baseUrl" must end with the version segment \/api\/v3, e\.g\. https:\/\/<host>\/api\/v3/,
    );
  });

  it("accepts a baseUrl ending with /api/v3, with or without a trailing slash or a gateway prefix", () => {
    for (const baseUrl of [base, `${base}/`, "https://gw.example.test/tenant/api/v3"])
      expect(createAudienceClient({ credentials, baseUrl }).config.baseUrl.pathname).toMatch(/\/api\/v3$/);
  });

  it("accepts maxPageLimit up to its ceiling, and ad-platform segments that only look encoded", () => {
    const client = createAudienceClient({
      baseUrl: base,
      credentials,
      maxPageLimit: CLIENT_DEFAULTS.maxPageLimitCeiling,
      adPlatform: "meta%20ads",
    });
    expect(client.config.maxPageLimit).toBe(1000);
    expect(client.config.adPlatform).toBe("meta%20ads"); // kept as given: openapi-fetch encodes it
    expect(createAudienceClient({ baseUrl: base, credentials, adPlatform: "..meta" }).config.adPlatform).toBe("..meta");
  });

  it("requires some way to authenticate", () => {
    expect(() => createAudienceClient({ baseUrl: base })).toThrow(/"credentials" or session or tokenStore/);
  });

  it("accepts http for loopback and derives the media host", () => {
    const client = createAudienceClient({ baseUrl: "http://127.0.0.1:9/api/v3", credentials });
    expect(client.config.mediaUrl.href).toBe("http://127.0.0.1:9/api/media");
    expect(Object.isFrozen(client.config)).toBe(true);
  });

  it("refuses a password or refresh token in a browser-like runtime unless allowed", () => {
    vi.stubGlobal("window", {});
    vi.stubGlobal("document", {});
    vi.stubGlobal("process", { ...process, versions: {} });
    expect(() => createAudienceClient({ baseUrl: base, credentials })).toThrow(/server-side only/);
    expect(() =>
      createAudienceClient({ baseUrl: base, session: { accessToken: "a-token", refreshToken: "r-token" } }),
    ).toThrow(/server-side only/);
    expect(() => createAudienceClient({ baseUrl: base, session: { accessToken: "a-token" } })).not.toThrow();
    expect(() => createAudienceClient({ baseUrl: base, credentials, dangerouslyAllowBrowser: true })).not.toThrow();
  });

  /** A global object that is an instance of `WorkerGlobalScope`, as in every browser worker. */
  const workerScope = () =>
    Object.defineProperty(function WorkerGlobalScope() {}, Symbol.hasInstance, {
      value: (value: unknown) => value === globalThis,
    });

  it.each(["DedicatedWorkerGlobalScope", "SharedWorkerGlobalScope", "ServiceWorkerGlobalScope"])(
    "refuses a password or refresh token in a browser worker (%s: no window, no document)",
    (scope) => {
      vi.stubGlobal("process", { ...process, versions: {} });
      vi.stubGlobal("WorkerGlobalScope", workerScope());
      vi.stubGlobal(scope, workerScope());
      expect(() => createAudienceClient({ baseUrl: base, credentials })).toThrow(/server-side only/);
      expect(() =>
        createAudienceClient({ baseUrl: base, session: { accessToken: "a-token", refreshToken: "r-token" } }),
      ).toThrow(/server-side only/);
      expect(() => createAudienceClient({ baseUrl: base, session: { accessToken: "a-token" } })).not.toThrow();
      expect(() => createAudienceClient({ baseUrl: base, credentials, dangerouslyAllowBrowser: true })).not.toThrow();
    },
  );

  it.each([
    [
      "workerd (a ServiceWorkerGlobalScope whose navigator says Cloudflare-Workers)",
      { navigator: { userAgent: "Cloudflare-Workers" } },
    ],
    ["Deno (a Deno global, window-like globals)", { Deno: {}, window: {}, document: {} }],
  ] as const)("stays server-side in %s", (_name, globals) => {
    vi.stubGlobal("process", { ...process, versions: {} });
    vi.stubGlobal("WorkerGlobalScope", workerScope());
    for (const [key, value] of Object.entries(globals)) vi.stubGlobal(key, value);
    expect(() => createAudienceClient({ baseUrl: base, credentials })).not.toThrow();
  });

  it("stays server-side in Node and Bun (process.versions.node) even with a window and document", () => {
    vi.stubGlobal("window", {});
    vi.stubGlobal("document", {});
    vi.stubGlobal("WorkerGlobalScope", workerScope());
    expect(() => createAudienceClient({ baseUrl: base, credentials })).not.toThrow();
  });
});

describe("options are the caller's own", () => {
  const polluted = ["mediaUrl", "partnerId", "fetch", "debug", "warn", "retry", "timeoutMs"] as const;
  afterEach(() => {
    for (const key of polluted) delete (Object.prototype as Record<string, unknown>)[key];
  });

  it("a polluted Object.prototype changes neither the media host, the partner, the transport nor the logger", async () => {
    const seen: string[] = [];
    const proto = Object.prototype as Record<string, unknown>;
    proto.mediaUrl = "https://attacker.example/api/media";
    proto.partnerId = "partner-id-attacker";
    proto.fetch = async (request: Request) => {
      seen.push(request.url);
      return new Response("{}");
    };
    proto.debug = () => seen.push("debug");
    proto.warn = () => seen.push("warn");
    proto.timeoutMs = 1;
    const client = createAudienceClient({
      baseUrl: base,
      session: { accessToken: "a-token" },
      fetch: async () => new Response("{}"),
    });
    expect(client.config.mediaUrl.href).toBe("https://api.example.test/api/media");
    expect(client.config.partnerId).toBeUndefined();
    expect(client.config.timeoutMs).toBe(CLIENT_DEFAULTS.attemptTimeoutMs);
    expect(client.config.logger).toEqual({});
    expect(seen).toEqual([]);
  });

  it("a logger's methods may live on its class", () => {
    const lines: string[] = [];
    class Log {
      warn(message: string) {
        lines.push(message);
      }
    }
    const client = createAudienceClient({ baseUrl: base, credentials, logger: new Log() });
    client.config.logger.warn?.("hello");
    expect(lines).toEqual(["hello"]);
  });
});
