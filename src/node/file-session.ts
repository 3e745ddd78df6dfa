/**
 * The session shared by the processes of one host through a file: one process
 * signs in or refreshes under a lock, the others adopt its tokens. For many hosts, use Redis.
 *
 * Files, all in the directory of `path`: `path` itself, the record (JSON, mode 0o600: it holds
 * tokens), always replaced whole by a rename; `<path>.lock.<fence>`, the lock (file-lock.ts);
 * `*.tmp-<pid>-<uuid>`, a write in progress.
 */
import { createHash } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { Coordinator, SessionKey, SessionShare, SharedSessionRecord } from "../coordination/coordinator.ts";
import { LONGEST_SHARED_COOL_DOWN_MS, trustedMsLeft } from "../coordination/stored-limits.ts";
import { ValidationError } from "../errors/validation-error.ts";
import { observe } from "../internal/observe.ts";
import { MAX_TIMER_MS } from "../internal/timers.ts";
import type { SessionTokens } from "../session/tokens.ts";
import { localCoordinator } from "../transport/partner-state.ts";
import { removeStaleTempFiles, writeFileAtomic } from "./atomic-file.ts";
import { acquireFileLock, type HeldFileLock, MAX_FENCE, newestLockFence } from "./file-lock.ts";
import { checkDirectory, checkDirectorySync, readTrusted, type UntrustedReport } from "./trusted-file.ts";

/**
 * The defaults of `fileSessionShare`, in one place. Client choices, not from the specification.
 * - `leaseMs`: a holder that dies without its pid being seen dead (another host's container sharing
 *   the directory, a frozen process) blocks the group this long at most; renewed every third of it
 *   while the holder works, so a slow sign-in keeps the lock.
 * - `waitMs`: a sign-in with the specification's retries and 429 waits can take tens of seconds;
 *   waiting longer than this for another process's one means something is stuck.
 */
const FILE_SESSION_DEFAULTS = Object.freeze({ leaseMs: 10_000, waitMs: 30_000 });

/** Shortest lease accepted: renewed every third of it, a shorter one lapses on a busy event loop. */
const MIN_LEASE_MS = 100;

/** Options of {@link fileSessionShare}. */
export interface FileSessionShareOptions {
  /** The JSON file holding the group's session (created, with its directory, when first written). */
  readonly path: string;
  /**
   * How long the lock outlives a holder that stops renewing it. A holder whose process is gone is
   * taken over at once when it ran on this host.
   * @default 10000
   */
  readonly leaseMs?: number;
  /**
   * The longest `withLock` waits for the lock before it rejects.
   * @default 30000
   */
  readonly waitMs?: number;
  /**
   * Told once per file when a record or lock file is ignored because this service's user could not
   * have written it (another owner, writable by others, a link, a FIFO): src/node/trusted-file.ts.
   * @default process.emitWarning
   */
  readonly onWarning?: (message: string) => void;
}

/** The record as stored: the cool-down as a wall-clock deadline (one host, one clock). */
interface RecordFile {
  readonly fence: number;
  readonly tokens?: SessionTokens;
  readonly coolDownUntil?: number;
}

const EMPTY: RecordFile = Object.freeze({ fence: 0 });

function isOptionalString(value: unknown): boolean {
  return value === undefined || typeof value === "string";
}

function parseTokens(value: unknown): SessionTokens | undefined | false {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null) return false;
  const { accessToken, refreshToken, idToken } = value as Record<string, unknown>;
  if (typeof accessToken !== "string" || !isOptionalString(refreshToken) || !isOptionalString(idToken)) return false;
  return {
    accessToken,
    ...(typeof refreshToken === "string" ? { refreshToken } : {}),
    ...(typeof idToken === "string" ? { idToken } : {}),
  };
}

/** The record in `text`, or EMPTY when it is not one (never reported: the text holds tokens). */
function parseRecord(text: string): RecordFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return EMPTY;
  }
  if (typeof value !== "object" || value === null) return EMPTY;
  const { fence, tokens, coolDownUntil } = value as Record<string, unknown>;
  const parsedTokens = parseTokens(tokens);
  // A fence the next lock file could not be numbered after is corrupt, not a fence (file-lock.ts).
  if (!Number.isSafeInteger(fence) || (fence as number) < 0 || (fence as number) >= MAX_FENCE) return EMPTY;
  if (parsedTokens === false) return EMPTY;
  if (coolDownUntil !== undefined && !Number.isFinite(coolDownUntil)) return EMPTY;
  return {
    fence: fence as number,
    ...(parsedTokens ? { tokens: parsedTokens } : {}),
    ...(coolDownUntil !== undefined ? { coolDownUntil: coolDownUntil as number } : {}),
  };
}

/** The record at `path`: EMPTY when absent, or when this service's user could not have written it. */
async function readRecord(path: string, report: UntrustedReport | undefined): Promise<RecordFile> {
  let text: string | undefined;
  try {
    text = await readTrusted(path, report);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(`fileSessionShare: cannot read ${path} (${code ?? "error"})`);
  }
  return text === undefined ? EMPTY : parseRecord(text);
}

function toShared(record: RecordFile): SharedSessionRecord {
  // Never longer than this client writes: a deadline written before the clock stepped back an hour
  // would otherwise hold /auth shut for that hour.
  const left =
    record.coolDownUntil === undefined
      ? 0
      : trustedMsLeft(record.coolDownUntil - Date.now(), LONGEST_SHARED_COOL_DOWN_MS);
  return {
    fence: record.fence,
    ...(record.tokens ? { tokens: record.tokens } : {}),
    ...(left > 0 ? { coolDownMs: left } : {}),
  };
}

function checkMs(value: unknown, field: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > MAX_TIMER_MS)
    throw new ValidationError([{ field, message: `must be a number of ms from ${min} to ${MAX_TIMER_MS}` }]);
  return value;
}

/** `onWarning`, wrapped: one that throws or rejects does not turn a distrusted file into a failed read. */
function warningOption(value: unknown): ((message: string) => void) | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "function") throw new ValidationError([{ field: "onWarning", message: "must be a function" }]);
  return (message) => observe(() => value(message));
}

/** A share's options but its path, checked (fileCoordinator checks them before its first share). */
function shareSettings(options: Omit<FileSessionShareOptions, "path">) {
  return {
    leaseMs: checkMs(options.leaseMs, "leaseMs", MIN_LEASE_MS) ?? FILE_SESSION_DEFAULTS.leaseMs,
    waitMs: checkMs(options.waitMs, "waitMs", 0) ?? FILE_SESSION_DEFAULTS.waitMs,
    report: warningOption(options.onWarning),
  };
}

function checkUpdate(update: { readonly tokens?: SessionTokens; readonly coolDownMs?: number }): void {
  if (update.tokens !== undefined && !parseTokens(update.tokens))
    throw new ValidationError([{ field: "tokens", message: "must hold an accessToken string" }]);
  checkMs(update.coolDownMs, "coolDownMs", 0);
}

/**
 * A {@link SessionShare} for the processes of one host, kept in the file at `path`: the record is
 * replaced whole by a rename (a reader never sees half of it), the lock is a file created with
 * O_EXCL that lapses after `leaseMs` unless renewed, and is taken over at once when its holder's
 * process on this host is gone. `write` keeps the stored value of a field the update leaves out;
 * `coolDownMs: 0` ends a cool-down.
 *
 * Limit: `write` checks the fence, then renames; a holder frozen for longer than its lease between
 * the two could still overwrite a newer record. Redis (one script per step) has no such window.
 * @example
 * const share = fileSessionShare({ path: "/var/run/my-service/audience-session.json" });
 */
export function fileSessionShare(options: FileSessionShareOptions): SessionShare {
  if (typeof options?.path !== "string" || !options.path.trim())
    throw new ValidationError([{ field: "path", message: "must be a file path" }]);
  const path = resolve(options.path);
  const { report, ...times } = shareSettings(options);
  /** The locks this share holds now, by fence: a write with a fence whose lease ran out is refused. */
  const held = new Map<number, HeldFileLock>();
  let directory: Promise<unknown> | undefined;
  /** Created once (mode 700); checked on every use, as its mode can change under a running service. */
  const ensureDirectory = async () => {
    directory ??= mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await directory;
    await checkDirectory(dirname(path), "path");
  };
  const readChecked = async () => {
    await checkDirectory(dirname(path), "path").catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
    });
    return readRecord(path, report);
  };
  /** Writes of this share, one at a time, so that a merge never reads a record another is replacing. */
  let writes: Promise<unknown> = Promise.resolve();

  const write = async (update: Parameters<SessionShare["write"]>[0], fence: number): Promise<boolean> => {
    if (!Number.isSafeInteger(fence) || fence < 1) return false;
    await ensureDirectory();
    const current = await readRecord(path, report);
    if (fence !== Math.max(await newestLockFence(path), current.fence)) return false;
    const lock = held.get(fence);
    if (lock && !lock.holds()) return false; // the lease ran out: another process may be taking over
    const coolDownUntil =
      update.coolDownMs === undefined
        ? current.coolDownUntil
        : update.coolDownMs > 0
          ? Date.now() + Math.min(update.coolDownMs, LONGEST_SHARED_COOL_DOWN_MS)
          : undefined;
    const tokens = update.tokens ? parseTokens(update.tokens) : current.tokens;
    const next: RecordFile = {
      fence,
      ...(tokens ? { tokens } : {}),
      ...(coolDownUntil !== undefined ? { coolDownUntil } : {}),
    };
    await writeFileAtomic(path, JSON.stringify(next));
    return true;
  };

  return {
    read: async () => toShared(await readChecked()),

    withLock: async (fn, lockOptions) => {
      await ensureDirectory();
      const floor = async () => (await readRecord(path, report)).fence;
      const lock = await acquireFileLock(path, { ...times, report }, floor, lockOptions ?? {});
      held.set(lock.fence, lock);
      try {
        await removeStaleTempFiles(path, times.leaseMs);
        return await fn(lock.fence);
      } finally {
        held.delete(lock.fence);
        // A release that fails leaves the lock to lapse after leaseMs; fn's outcome is what matters.
        await lock.release().catch(() => undefined);
      }
    },

    write: async (update, fence) => {
      checkUpdate(update);
      const result = writes.then(() => write(update, fence));
      writes = result.catch(() => undefined);
      return result;
    },
  };
}

/** Options of {@link fileCoordinator}. */
export interface FileCoordinatorOptions extends Omit<FileSessionShareOptions, "path"> {
  /**
   * The directory of the session files, one per environment and username (created when first
   * written). Only your service's user should be able to read it: the files hold tokens.
   */
  readonly directory: string;
}

/**
 * A coordinator for the processes of one host without Redis: they share one
 * session through a file (one sign-in, shared refreshes); slots and pace stay per process.
 */
export function fileCoordinator(options: FileCoordinatorOptions): Coordinator {
  const { directory, ...rest } = options ?? ({} as FileCoordinatorOptions);
  if (typeof directory !== "string" || !directory.trim())
    throw new ValidationError([{ field: "directory", message: "must be a directory path" }]);
  // A directory others can write lets them plant a session: refused at once when it exists.
  checkDirectorySync(directory, "directory");
  shareSettings(rest); // a bad option is refused now, not at the client's first call
  const shares = new Map<string, SessionShare>();
  return {
    partner: (key) => localCoordinator.partner(key),
    session(key: SessionKey): SessionShare {
      const name = createHash("sha256").update(`${key.environment}\n${key.identity}`).digest("hex").slice(0, 24);
      let share = shares.get(name);
      if (!share) {
        share = fileSessionShare({ ...rest, path: join(directory, `session-${name}.json`) });
        shares.set(name, share);
      }
      return share;
    },
  };
}
