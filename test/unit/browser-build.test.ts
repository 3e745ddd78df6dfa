/**
 * The browser build (package.json's `browser` and `worker` conditions, dist/browser/): the root
 * entry bundled with the server-only modules of scripts/browser-build.mjs swapped for their
 * siblings, loaded and run. A page's way to get tokens (a session provider), its renewal after a
 * 401 and its typed errors work; a sign-in option is refused when the client is created, naming
 * the option, even with `dangerouslyAllowBrowser: true` (this build has no /auth exchange).
 */

import { mkdtemp, rm } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { esbuildBrowserSwaps } from "../../scripts/browser-build.mjs";
import type * as Root from "../../src/index.ts";
import type * as BrowserLogEnv from "../../src/options/log-env.browser.ts";
import type * as LogEnv from "../../src/options/log-env.ts";
import type * as BrowserServerOnly from "../../src/options/server-only.browser.ts";
import type * as ServerOnly from "../../src/options/server-only.ts";
import type * as BrowserExchange from "../../src/session/auth-exchange.browser.ts";
import type * as Exchange from "../../src/session/auth-exchange.ts";
import type * as BrowserBudget from "../../src/session/failure-budget.browser.ts";
import type * as Budget from "../../src/session/failure-budget.ts";
import { type FakeApi, startFakeApi } from "../support/fake-api.ts";
import { json, type RecordedRequest } from "../support/recording-server.ts";
import { makeTokens } from "../support/tokens.ts";

/**
 * Each browser sibling has its server module's shape (tsc checks these lines): the same exported
 * functions, and classes built with the same arguments and with the same public members.
 */
type Public<T> = { [K in keyof T]: T[K] };
type Built<C extends abstract new (...args: never) => unknown> = (
  ...args: ConstructorParameters<C>
) => Public<InstanceType<C>>;
type SiblingShapes = [
  Built<typeof BrowserExchange.AuthExchange> extends Built<typeof Exchange.AuthExchange> ? true : never,
  Built<typeof BrowserBudget.FailureBudget> extends Built<typeof Budget.FailureBudget> ? true : never,
  typeof BrowserExchange.failureReason extends typeof Exchange.failureReason ? true : never,
  typeof BrowserServerOnly.refusedByThisBuild extends typeof ServerOnly.refusedByThisBuild ? true : never,
  typeof BrowserLogEnv.envLogger extends typeof LogEnv.envLogger ? true : never,
];
const shapes: SiblingShapes = [true, true, true, true, true];

const root = resolve(import.meta.dirname, "../..");
let scratch = "";
let browserBuild: typeof Root;
let api: FakeApi | undefined;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "ai-browser-build-"));
  const outfile = join(scratch, "index.mjs");
  await build({
    entryPoints: [join(root, "src/index.ts")],
    plugins: [esbuildBrowserSwaps(root)],
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    outfile,
    logLevel: "silent",
  });
  browserBuild = (await import(pathToFileURL(outfile).href)) as typeof Root;
}, 60_000);

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

afterEach(async () => {
  await api?.close();
  api = undefined;
});

const partnerId = "partner-id-acme";
const baseUrl = "https://api.example.test/api/v3";

describe("the browser build refuses what a page cannot do, naming the option", () => {
  const refused = (option: string) =>
    expect.objectContaining({
      name: "TypeError",
      message: expect.stringMatching(
        new RegExp(`option "${option.replace(".", "\\.")}".*server-side only.*browser build`),
      ),
    });

  it("credentials, with or without dangerouslyAllowBrowser", () => {
    const credentials = { username: "u", password: "browser-build-password" };
    for (const allow of [false, true]) {
      let thrown: unknown;
      try {
        browserBuild.createAudienceClient({ baseUrl, credentials, dangerouslyAllowBrowser: allow });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toEqual(refused("credentials"));
      expect(String((thrown as Error).message)).not.toContain("browser-build-password");
    }
  });

  it("a session's refresh token, and useCredentials / useSession later", () => {
    const t = makeTokens();
    const session = { accessToken: t.AccessToken, refreshToken: t.RefreshToken };
    expect(() =>
      browserBuild.createAudienceClient({ baseUrl, session, partnerId, dangerouslyAllowBrowser: true }),
    ).toThrow(refused("session.refreshToken"));
    const client = browserBuild.createAudienceClient({ baseUrl, session: { accessToken: t.AccessToken }, partnerId });
    expect(() => client.useSession(session)).toThrow(/browser build/);
    expect(() => client.useCredentials({ username: "u", password: "p" })).toThrow(/browser build/);
  });
});

describe("the browser build keeps what a page uses", () => {
  it("its siblings have their server modules' shapes (checked by tsc)", () => {
    expect(shapes).toEqual([true, true, true, true, true]);
  });

  it("a session provider: asked once by concurrent first calls, again after a 401, the call replayed", async () => {
    const revoked = new Set<string>();
    api = await startFakeApi();
    api.route((req: RecordedRequest, res: ServerResponse) => {
      const token = String(req.headers.authorization ?? "").replace(/^Bearer /, "");
      if (revoked.has(token)) return json(res, 401, { message: "error.auth.invalid_token" });
      return json(res, 200, { ok: true });
    });
    const issued: string[] = [];
    const session = async () => {
      const t = makeTokens();
      issued.push(t.AccessToken);
      return { accessToken: t.AccessToken };
    };
    const client = browserBuild.createAudienceClient({ baseUrl: api.url, session, partnerId });
    const read = () => client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
    const answers = await Promise.all(Array.from({ length: 5 }, read));
    expect(answers.map((a) => a.response.status)).toEqual([200, 200, 200, 200, 200]);
    expect(issued).toHaveLength(1);
    revoked.add(issued[0] as string);
    expect((await read()).response.status).toBe(200);
    expect(issued).toHaveLength(2);
  });

  it("request validation and typed errors", async () => {
    const t = makeTokens();
    const client = browserBuild.createAudienceClient({ baseUrl, session: { accessToken: t.AccessToken }, partnerId });
    await expect(client.GET("/events/{eid}", { params: { path: { eid: "" } } })).rejects.toBeInstanceOf(
      browserBuild.ValidationError,
    );
  });
});
