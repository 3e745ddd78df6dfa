/**
 * The file share never trusts a stored number beyond what this client could have written: a fence
 * the lock files cannot name, a cool-down or a lease longer than the client ever sets (a record
 * written before the host clock stepped back an hour). And every wait for the lock ends by its
 * deadline, its `waitMs`, or its signal.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileSessionShare } from "../../src/node/index.ts";

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "file-limits-"));
  path = join(dir, "session.json");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Settles within `ms`, or rejects saying it hung. */
function within<T>(pending: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    pending,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`did not settle within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

const HOUR = 3_600_000;

describe("a fence the lock files cannot name", () => {
  it("a record whose fence is 10^15 is corrupt: read gives fence 0 and withLock takes fence 1 at once", async () => {
    await writeFile(path, JSON.stringify({ fence: 10 ** 15, tokens: { accessToken: "a" } }), { mode: 0o600 });
    const share = fileSessionShare({ path, waitMs: 300 });
    expect(await share.read()).toEqual({ fence: 0 });
    expect(
      await within(
        share.withLock(async (f) => f),
        1_000,
      ),
    ).toBe(1);
  });

  it("a lock file numbered 999999999999999 (whose successor has no name the lock files accept) holds nothing", async () => {
    await writeFile(`${path}.lock.999999999999999`, JSON.stringify({ pid: 1, host: "h", fence: 1, expiresAt: 0 }), {
      mode: 0o600,
    });
    const share = fileSessionShare({ path, waitMs: 300 });
    const settled = await within(
      share
        .withLock(async (f) => f)
        .then(
          (f) => ({ fence: f }),
          (error: Error) => ({ error: error.message }),
        ),
      1_000,
    );
    expect(settled).toEqual({ fence: 1 });
  });
});

describe("the wait for the lock ends", () => {
  it("a lock file at the highest fence (no number left after it) is refused within waitMs, never spun on", async () => {
    await writeFile(`${path}.lock.999999999999998`, JSON.stringify({ pid: 1, host: "h", fence: 1, expiresAt: 0 }), {
      mode: 0o600,
    });
    const share = fileSessionShare({ path, waitMs: 300 });
    const started = performance.now();
    await expect(
      within(
        share.withLock(async (f) => f),
        2_000,
      ),
    ).rejects.toThrow(/not free within 300 ms/);
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  const held = async () => {
    const holder = fileSessionShare({ path, leaseMs: 10_000 });
    let release: () => void = () => undefined;
    const holding = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered: () => void = () => undefined;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const done = holder.withLock(async () => {
      entered();
      await holding;
    });
    await inside;
    return {
      release: () => {
        release();
        return done;
      },
    };
  };

  it("at the caller's deadline (monotonic), before waitMs", async () => {
    const lock = await held();
    const share = fileSessionShare({ path, waitMs: 30_000 });
    const started = performance.now();
    await expect(
      within(
        share.withLock(async () => 1, { deadlineAt: performance.now() + 200 }),
        2_000,
      ),
    ).rejects.toThrow(/deadline/);
    expect(performance.now() - started).toBeLessThan(1_000);
    await lock.release();
  });

  it("when the caller's signal aborts, with its reason", async () => {
    const lock = await held();
    const share = fileSessionShare({ path, waitMs: 30_000 });
    const reason = new Error("shutting down");
    const signal = AbortSignal.timeout(150);
    const controller = new AbortController();
    signal.addEventListener("abort", () => controller.abort(reason));
    await expect(
      within(
        share.withLock(async () => 1, { signal: controller.signal }),
        2_000,
      ),
    ).rejects.toBe(reason);
    await lock.release();
  });
});

describe("a stored deadline is never trusted beyond what this client could have set", () => {
  it("a cool-down written before the clock stepped back an hour holds for 60 s at most, not an hour", async () => {
    // 60 s: the longest cool-down the client writes (its longest Retry-After wait, above Section
    // 8.3's 30 s backoff cap and 10 s wait after a 429).
    await writeFile(path, JSON.stringify({ fence: 1, coolDownUntil: Date.now() + HOUR }), { mode: 0o600 });
    const share = fileSessionShare({ path });
    const { coolDownMs } = await share.read();
    expect(coolDownMs).toBeGreaterThan(0);
    expect(coolDownMs).toBeLessThanOrEqual(60_000);
  });

  it("a write never stores a cool-down longer than that", async () => {
    const share = fileSessionShare({ path });
    await share.withLock(async (fence) => {
      await share.write({ coolDownMs: HOUR }, fence);
    });
    expect((await share.read()).coolDownMs).toBeLessThanOrEqual(60_000);
  });

  it("a lock whose lease ends an hour from now (another host's holder, before a clock step) lapses within leaseMs", async () => {
    await writeFile(
      `${path}.lock.3`,
      JSON.stringify({ pid: 1, host: "another-host", fence: 3, expiresAt: Date.now() + HOUR }),
      { mode: 0o600 },
    );
    const share = fileSessionShare({ path, leaseMs: 300, waitMs: 3_000 });
    const started = performance.now();
    expect(
      await within(
        share.withLock(async (f) => f),
        3_000,
      ),
    ).toBe(4);
    expect(performance.now() - started).toBeLessThan(1_500);
  });
});
