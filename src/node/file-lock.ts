/**
 * A lock with fencing tokens shared by the processes of one host, in files next to `path`.
 *
 * Each acquisition creates a new lock file `<path>.lock.<fence>` with O_EXCL (`open(…, "wx")`), one
 * number above the newest, holding `{ pid, host, fence, expiresAt }`. O_EXCL lets exactly one
 * process create each number, so fences only grow and are never issued twice; the holder of the
 * newest file holds the lock. The newest file is never deleted (a release sets its expiresAt to 0),
 * so the count survives every release; older files are removed by the next holder.
 *
 * Why a file per fence rather than one lock file deleted on release: taking over a lapsed single
 * file needs an unlink and a create, and two processes doing both at once can both believe they
 * hold it; here a takeover is a create of the next number, which only one process wins.
 */
import { open, readdir, stat, unlink } from "node:fs/promises";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";
import { sleep } from "../internal/sleep.ts";
import { PRIVATE_FILE_MODE, writeFileAtomic } from "./atomic-file.ts";
import { readTrusted, type UntrustedReport } from "./trusted-file.ts";

/** What a lock file holds. */
interface LockContent {
  readonly pid: number;
  /** The host name: a pid says whether its process lives only on the host that wrote it. */
  readonly host: string;
  readonly fence: number;
  /** Wall-clock ms (Date.now) after which the lock has lapsed; 0 once released. */
  readonly expiresAt: number;
}

/**
 * The highest fence: lock files are named with at most 15 digits, and the next lock must have a
 * name too. A record or lock file with a higher number is corrupt (or planted), not a fence.
 */
export const MAX_FENCE = 10 ** 15 - 2;

/** How long a lock lasts without renewal and how long to wait for it. */
export interface FileLockTimes {
  readonly leaseMs: number;
  readonly waitMs: number;
  /** Told once of a lock file this service's user could not have written (it is ignored). */
  readonly report?: UntrustedReport | undefined;
}

/** A lock this process holds. */
export interface HeldFileLock {
  readonly fence: number;
  /** True while the lease, as last renewed, has not run out and no newer holder was seen. */
  holds(): boolean;
  /** Stops renewing and marks the lock free (its file stays, as the fence count). */
  release(): Promise<void>;
}

/** Polling for a busy lock: the first wait, and the most any wait grows to (10-50 ms). */
const POLL_FIRST_MS = 10;
const POLL_MAX_MS = 50;

const HOST = hostname();

function lockPrefix(path: string): string {
  return `${basename(path)}.lock.`;
}

function lockFile(path: string, fence: number): string {
  return join(dirname(path), `${lockPrefix(path)}${fence}`);
}

/** The lock numbers present next to `path`, highest first. */
async function generations(path: string): Promise<number[]> {
  const prefix = lockPrefix(path);
  const names = await readdir(dirname(path)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [] as string[];
    throw error;
  });
  return names
    .filter((name) => name.startsWith(prefix) && /^\d{1,15}$/.test(name.slice(prefix.length)))
    .map((name) => Number(name.slice(prefix.length)))
    .filter((fence) => fence <= MAX_FENCE)
    .sort((a, b) => b - a);
}

/** The newest fence issued for `path` by a lock file (0 when there is none). */
export async function newestLockFence(path: string): Promise<number> {
  return (await generations(path))[0] ?? 0;
}

function parseLock(text: string): LockContent | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockContent> | null;
    if (
      value &&
      Number.isSafeInteger(value.pid) &&
      typeof value.host === "string" &&
      Number.isSafeInteger(value.fence) &&
      typeof value.expiresAt === "number"
    )
      return value as LockContent;
  } catch {
    // An empty file (its creator has not written it yet, or died first) or a damaged one.
  }
  return undefined;
}

/** False when the process is known to be gone (ESRCH); EPERM means it lives under another user. */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/** Whether lock number `fence` of `path` may be taken over: released, lapsed, or its holder died. */
async function lapsed(path: string, fence: number, times: FileLockTimes): Promise<boolean> {
  const { leaseMs } = times;
  const file = lockFile(path, fence);
  // Gone (the fence came from the record, or the file was removed), or not this user's to trust:
  // the check after creating the next one (acquire) catches a newer holder.
  const text = await readTrusted(file, times.report);
  if (text === undefined) return true;
  const content = parseLock(text);
  if (!content) {
    // Created but not written: its creator is writing it now, or died between the two steps.
    const info = await stat(file).catch(() => undefined);
    return !info || Date.now() - info.mtimeMs > leaseMs;
  }
  if (untrustedLeaseEnded(file, content.expiresAt, leaseMs)) return true;
  return content.host === HOST && !processAlive(content.pid);
}

/**
 * Leases that end later than any this client writes (now + leaseMs), by when this process first
 * saw each (monotonic): written before the clock stepped back, or by something else than this
 * client. Such a lease is trusted for leaseMs from that sighting, no longer; a holder that renews
 * writes a plausible one meanwhile.
 */
const implausible = new Map<string, number>();

function untrustedLeaseEnded(file: string, expiresAt: number, leaseMs: number): boolean {
  const left = expiresAt - Date.now();
  if (left <= 0) return true;
  if (left <= leaseMs) return false;
  const key = `${file}\n${expiresAt}`;
  const seenAt = implausible.get(key) ?? performance.now();
  if (implausible.size > 64) implausible.clear(); // a few lock files at most: never grows
  implausible.set(key, seenAt);
  return performance.now() - seenAt > leaseMs;
}

function content(fence: number, expiresAt: number): string {
  return JSON.stringify({ pid: process.pid, host: HOST, fence, expiresAt } satisfies LockContent);
}

/**
 * Creates lock number `fence` with O_EXCL; returns the lease's end, or undefined when another
 * process created that number first.
 */
async function create(path: string, fence: number, leaseMs: number): Promise<number | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(lockFile(path, fence), "wx", PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return undefined;
    throw error;
  }
  const expiresAt = Date.now() + leaseMs;
  try {
    await handle.writeFile(content(fence, expiresAt), "utf8");
  } finally {
    await handle.close();
  }
  return expiresAt;
}

/** True when lock number `fence`, just created, is the newest; older ones are then removed. */
async function confirm(path: string, fence: number): Promise<boolean> {
  try {
    if ((await newestLockFence(path)) !== fence) {
      await unlink(lockFile(path, fence)).catch(() => undefined);
      return false;
    }
    await removeOlder(path, fence);
    return true;
  } catch (error) {
    // Created but not confirmed: free it now rather than block the group for a whole lease.
    await writeFileAtomic(lockFile(path, fence), content(fence, 0)).catch(() => undefined);
    throw error;
  }
}

/** Where and how long `acquireFileLock` waits: the caller's signal and deadline (monotonic ms). */
export interface LockWait {
  readonly signal?: AbortSignal | undefined;
  readonly deadlineAt?: number | undefined;
}

/** A refusal at the end of the wait, saying which limit ended it. */
function waitEnded(path: string, times: FileLockTimes, byCaller: boolean): Error {
  return new Error(
    byCaller
      ? `fileSessionShare: the lock of ${path} was not free by the call's deadline`
      : `fileSessionShare: the lock of ${path} was not free within ${times.waitMs} ms`,
  );
}

/**
 * Takes the lock of `path`, waiting up to `times.waitMs` for it, or until the caller's deadline or
 * signal. `floor` is the newest fence known elsewhere (the record's), so that a fence stays above
 * it even if the lock files were removed. Every path of the loop passes the deadline check: a
 * number the files cannot hold, or a race lost every time, ends in a refusal, never a spin.
 */
export async function acquireFileLock(
  path: string,
  times: FileLockTimes,
  floor: () => Promise<number>,
  wait: LockWait = {},
): Promise<HeldFileLock> {
  const { signal, deadlineAt } = wait;
  const ownDeadline = performance.now() + times.waitMs;
  const byCaller = deadlineAt !== undefined && deadlineAt < ownDeadline;
  const deadline = byCaller ? deadlineAt : ownDeadline;
  let poll = POLL_FIRST_MS;
  let lost = 0;
  for (;;) {
    signal?.throwIfAborted();
    if (performance.now() >= deadline) throw waitEnded(path, times, byCaller);
    const newest = Math.max(await newestLockFence(path), await floor());
    if (newest < MAX_FENCE && (newest === 0 || (await lapsed(path, newest, times)))) {
      const fence = newest + 1;
      const expiresAt = await create(path, fence, times.leaseMs);
      // A process that read the directory long ago may have created a number already passed (the
      // files between were removed meanwhile): the newest file wins, this one withdraws.
      if (expiresAt !== undefined && (await confirm(path, fence))) return hold(path, fence, times.leaseMs, expiresAt);
      // Another process moved first: look again at once, the first few times.
      lost += 1;
      if (lost < 3) continue;
    }
    const left = deadline - performance.now();
    if (left <= 0) throw waitEnded(path, times, byCaller);
    const pause = Math.max(POLL_FIRST_MS, Math.min(POLL_MAX_MS, poll * (0.8 + 0.4 * Math.random())));
    await sleep(Math.min(pause, left), signal);
    poll = Math.min(POLL_MAX_MS, poll * 1.5);
  }
}

/** Holds lock number `fence`, whose lease ends at `expiresAt`: renews the lease while held. */
function hold(path: string, fence: number, leaseMs: number, firstExpiresAt: number): HeldFileLock {
  const file = lockFile(path, fence);
  let expiresAt = firstExpiresAt;
  let superseded = false;
  let renewing: Promise<void> = Promise.resolve();

  const renew = async (): Promise<void> => {
    if ((await newestLockFence(path)) !== fence) {
      superseded = true;
      return;
    }
    const next = Date.now() + leaseMs;
    await writeFileAtomic(file, content(fence, next));
    expiresAt = next;
  };
  // A third of the lease: two renewals can fail (a busy disk, a slow event loop) before it lapses.
  const timer = setInterval(() => {
    renewing = renewing.then(renew).catch(() => undefined);
  }, leaseMs / 3);
  timer.unref();

  return {
    fence,
    holds: () => !superseded && Date.now() < expiresAt,
    release: async () => {
      clearInterval(timer);
      await renewing;
      if (superseded || (await newestLockFence(path)) !== fence) return;
      await writeFileAtomic(file, content(fence, 0));
    },
  };
}

/** Removes the lock files below `fence`: the newest one alone keeps the count. */
async function removeOlder(path: string, fence: number): Promise<void> {
  for (const older of (await generations(path).catch(() => [])).filter((n) => n < fence))
    await unlink(lockFile(path, older)).catch(() => undefined);
}
