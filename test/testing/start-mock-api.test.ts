/**
 * `@audience-intelligence/client/testing` (src/testing/): startMockApi starts the pinned Prism on
 * the package's own merged description, and a client made with `session: { accessToken }` gets
 * the description's examples from it. When Prism is not installed, the error says how to add it.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createAudienceClient, listEvents, unwrap } from "../../src/index.ts";
import { startMockApi } from "../../src/testing/index.ts";
import { locatePrism } from "../../src/testing/prism.ts";

const listening = (url: string): Promise<boolean> =>
  new Promise((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

describe("startMockApi", () => {
  it("serves the merged description with its examples on 127.0.0.1, for a client with an access token; close() stops it", async () => {
    const api = await startMockApi();
    try {
      expect(api.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v3$/);
      expect(api.mediaUrl).toBe(`${new URL(api.baseUrl).origin}/api/media`);
      const client = createAudienceClient({
        baseUrl: api.baseUrl,
        mediaUrl: api.mediaUrl,
        session: { accessToken: "test-token" },
        partnerId: "partner-id-test",
      });
      const event = unwrap(await client.GET("/events/{eid}", { params: { path: { eid: "evt-1001" } } }));
      expect(event.id).toBe("evt-1001");
      const ids: string[] = [];
      for await (const listed of listEvents(client, { maxItems: 2 })) ids.push(listed.id);
      expect(ids.length).toBeGreaterThan(0);
      // The description's security holds: no bearer token, a 401.
      const anonymous = await fetch(`${api.baseUrl}/events/evt-1001`);
      expect(anonymous.status).toBe(401);
    } finally {
      await api.close();
    }
    expect(await listening(api.baseUrl)).toBe(false);
    await api.close(); // twice is harmless
  });

  it("two mocks at once get two ports", async () => {
    const [a, b] = await Promise.all([startMockApi(), startMockApi()]);
    try {
      expect(a.baseUrl).not.toBe(b.baseUrl);
      expect(await listening(a.baseUrl)).toBe(true);
      expect(await listening(b.baseUrl)).toBe(true);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("close() ends an answer held back by slow-upstream at once, and stops Prism", async () => {
    const api = await startMockApi({ scenario: "slow-upstream", scenarioOptions: { delayMs: 30_000 } });
    const held = fetch(`${api.baseUrl}/status/`).then(
      (r) => r.status,
      () => "closed",
    );
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await api.close();
    expect(await held).toBe("closed");
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await listening(api.baseUrl)).toBe(false);
  });

  it("a description that Prism cannot load fails with Prism's output", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mock-api-"));
    try {
      await writeFile(join(dir, "broken.json"), "{ not json");
      await expect(startMockApi({ description: join(dir, "broken.json") })).rejects.toThrow(/Prism exited/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("Prism is an optional peer dependency", () => {
  const scratch: string[] = [];
  afterAll(() => Promise.all(scratch.map((d) => rm(d, { recursive: true, force: true }))));

  it("is found from the package's own location", () => {
    expect(locatePrism(join(process.cwd(), "package.json"))).toMatch(
      /@stoplight[/\\]prism-cli[/\\]dist[/\\]index\.js$/,
    );
  });

  it("when missing, the error names the package, the version range and how to add it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "no-prism-"));
    scratch.push(dir);
    await mkdir(join(dir, "node_modules"));
    await writeFile(join(dir, "package.json"), "{}");
    expect(() => locatePrism(join(dir, "package.json"))).toThrow(
      /@stoplight\/prism-cli.*optional peer dependency.*npm install --save-dev @stoplight\/prism-cli@\^5\.14/s,
    );
  });
});

describe("README", () => {
  const blocks = (section: string): string[] => [...section.matchAll(/```ts\n([\s\S]*?)```\n/g)].map((m) => m[1] ?? "");
  it('"Testing your code" shows test/testing/readme-example.test.ts and readme-scenario.test.ts word for word', async () => {
    const readme = await readFile(join(process.cwd(), "README.md"), "utf8");
    const section = readme.slice(
      readme.indexOf("## Testing your code"),
      readme.indexOf("\n## ", readme.indexOf("## Testing your code") + 5),
    );
    const files = ["readme-example.test.ts", "readme-scenario.test.ts"];
    const examples = await Promise.all(files.map((f) => readFile(join(process.cwd(), "test", "testing", f), "utf8")));
    expect(blocks(section)).toEqual(examples);
  });
});
