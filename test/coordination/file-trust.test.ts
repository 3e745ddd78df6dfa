/**
 * What the file share trusts (src/node/trusted-file.ts): only a regular file this user owns and no
 * one else can write, in a directory no one else can write. Real files, real modes and owners (the
 * owner tests need root, to chown to another user), a real FIFO.
 */
import { execFileSync } from "node:child_process";
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ValidationError } from "../../src/errors/validation-error.ts";
import { createAudienceClient } from "../../src/index.ts";
import { fileCoordinator, fileSessionShare } from "../../src/node/index.ts";
import { startFakeApi } from "../support/fake-api.ts";
import { json } from "../support/recording-server.ts";

/** The uid of `nobody`: another local user. */
const NOBODY = 65_534;
const isRoot = process.getuid?.() === 0;
/** A FIFO at `file`, owned by this user, mode 600 (through sh, which every test host has). */
const mkfifo = (file: string) => execFileSync("sh", ["-c", 'mkfifo -m 600 "$0"', file]);

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "file-trust-"));
  path = join(dir, "session.json");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A record as another account would plant it: valid, with its own tokens. */
const PLANTED = JSON.stringify({
  fence: 7,
  tokens: { accessToken: "planted-access", refreshToken: "planted-refresh" },
});

/** Settles within `ms`, or rejects saying it hung. */
function within<T>(pending: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    pending,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`did not settle within ${ms} ms`)), ms)),
  ]);
}

describe("a directory others can write is refused, as OpenSSH's StrictModes does", () => {
  it.each([
    ["world-writable with the sticky bit (a 1777 /tmp/<app>)", 0o1777],
    ["group-writable", 0o770],
    ["world-writable", 0o707],
  ])("%s: fileCoordinator throws a ValidationError naming `directory`", async (_, mode) => {
    const shared = join(dir, "app");
    await mkdir(shared);
    await chmod(shared, mode);
    expect(() => fileCoordinator({ directory: shared })).toThrow(ValidationError);
    expect(() => fileCoordinator({ directory: shared })).toThrow(/^directory: is writable by other users/);
  });

  it("a directory made writable by others after the share was created: read and withLock reject, naming `path`", async () => {
    const share = fileSessionShare({ path });
    await chmod(dir, 0o1777);
    await expect(share.read()).rejects.toThrow(/^path: is writable by other users/);
    await expect(share.withLock(async () => 1)).rejects.toBeInstanceOf(ValidationError);
  });

  it.skipIf(!isRoot)("a directory owned by another user is refused", async () => {
    const theirs = join(dir, "theirs");
    await mkdir(theirs, { mode: 0o700 });
    await chown(theirs, NOBODY, NOBODY);
    expect(() => fileCoordinator({ directory: theirs })).toThrow(/^directory: is owned by another user/);
  });
});

describe("a record or lock file this user could not have written is treated as absent, with one warning", () => {
  const cases: Array<[string, () => Promise<void>, boolean]> = [
    [
      "owned by another user",
      async () => {
        await writeFile(path, PLANTED, { mode: 0o600 });
        await chown(path, NOBODY, NOBODY);
      },
      true,
    ],
    ["group-writable", async () => writeFile(path, PLANTED, { mode: 0o620 }).then(() => chmod(path, 0o620)), false],
    ["world-writable", async () => writeFile(path, PLANTED).then(() => chmod(path, 0o606)), false],
    [
      "a FIFO (would hang the read and pin a pool thread)",
      async () => {
        mkfifo(path);
      },
      false,
    ],
    [
      "a symbolic link to a record this user owns",
      async () => {
        const target = join(dir, "elsewhere.json");
        await writeFile(target, PLANTED, { mode: 0o600 });
        await symlink(target, path);
      },
      false,
    ],
    ["a directory", async () => mkdir(path, { mode: 0o700 }), false],
  ];

  it.each(cases)("%s", async (_, plant, needsRoot) => {
    if (needsRoot && !isRoot) return;
    await plant();
    const warnings: string[] = [];
    const share = fileSessionShare({ path, waitMs: 2_000, onWarning: (m) => warnings.push(m) });
    expect(await within(share.read(), 1_000)).toEqual({ fence: 0 });
    expect(await within(share.read(), 1_000)).toEqual({ fence: 0 });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(path);
    expect(warnings[0]).not.toContain("planted");
  });

  it("a planted record is replaced by the next holder's own, which is then trusted", async () => {
    await writeFile(path, PLANTED);
    await chmod(path, 0o666);
    const share = fileSessionShare({ path, onWarning: () => undefined });
    const fence = await share.withLock(async (f) => {
      expect(await share.write({ tokens: { accessToken: "ours" } }, f)).toBe(true);
      return f;
    });
    expect(await share.read()).toEqual({ fence, tokens: { accessToken: "ours" } });
    expect(JSON.parse(await readFile(path, "utf8")).tokens.accessToken).toBe("ours");
  });

  it("a FIFO at a lock file's path hangs nothing: withLock goes on past it", async () => {
    mkfifo(`${path}.lock.3`);
    const share = fileSessionShare({ path, waitMs: 500, onWarning: () => undefined });
    expect(
      await within(
        share.withLock(async (f) => f),
        2_000,
      ),
    ).toBe(4);
  });

  it("a lock file owned by another user does not hold the lock", async () => {
    if (!isRoot) return;
    const lock = `${path}.lock.3`;
    await writeFile(lock, JSON.stringify({ pid: process.pid, host: "x", fence: 3, expiresAt: Date.now() + 3_600_000 }));
    await chown(lock, NOBODY, NOBODY);
    const share = fileSessionShare({ path, waitMs: 300, onWarning: () => undefined });
    expect(
      await within(
        share.withLock(async (f) => f),
        2_000,
      ),
    ).toBe(4);
  });
});

describe("a client on the file coordinator", () => {
  it.skipIf(!isRoot)("never sends the bearer of a record another user planted: it signs in itself", async () => {
    const api = await startFakeApi();
    api.route((_req, res) => json(res, 200, { eid: "e" }));
    try {
      const open = () =>
        createAudienceClient({
          baseUrl: api.url,
          credentials: { username: "u@example.test", password: "pw-secret-value" },
          coordinator: fileCoordinator({ directory: dir, onWarning: () => undefined }),
        });
      const get = (client: ReturnType<typeof open>) => client.GET("/events/{eid}", { params: { path: { eid: "e1" } } });
      expect((await get(open())).response.status).toBe(200);
      // Another account's tokens, at the record's own path, owned by another user.
      const [record] = (await readdir(dir)).filter((n) => /^session-[0-9a-f]+\.json$/.test(n));
      const planted = join(dir, record as string);
      await writeFile(planted, PLANTED);
      await chown(planted, NOBODY, NOBODY);
      expect((await get(open())).response.status).toBe(200);
      const bearers = api.calls().map((r) => String(r.headers.authorization));
      expect(bearers.filter((b) => b.includes("planted"))).toEqual([]);
      expect(api.signIns()).toBe(2); // adopting the planted record: 1, and its bearer sent
    } finally {
      await api.close();
    }
  });
});
