/**
 * What a file share trusts: only what this service's user could have written. The record and the
 * lock files sit at predictable paths; another local user who can write the directory (a `/tmp/<app>`
 * made 1777) could plant a record with the tokens of their own account, a FIFO that hangs every read
 * and pins a libuv pool thread, or a link to a file of theirs.
 *
 * - A directory others can write (group or world write bit) or owned by another user than this one
 *   or root is refused, as OpenSSH's `StrictModes` refuses such a home or `.ssh`.
 * - A file is read only when, opened without following links (O_NOFOLLOW) and without blocking
 *   (O_NONBLOCK: a FIFO opens at once and is then refused), `fstat` on the opened descriptor shows a
 *   regular file owned by this user and writable by no one else. Anything else is treated as absent
 *   and reported once per path.
 */
import { constants, statSync } from "node:fs";
import { open, stat } from "node:fs/promises";
import { ValidationError } from "../errors/validation-error.ts";

/** Group and world write bits. */
const OTHERS_WRITE = 0o022;

/** This process's user id; undefined where the platform has none (Windows: no check by uid). */
const uid = (): number | undefined => process.getuid?.();

/** Why a directory is not safe to share files in, or undefined when it is. */
function directoryProblem(info: { mode: number; uid: number; isDirectory(): boolean }): string | undefined {
  if (!info.isDirectory()) return "is not a directory";
  const me = uid();
  if (me !== undefined && info.uid !== me && info.uid !== 0)
    return "is owned by another user (it must be owned by this service's user or root)";
  if ((info.mode & OTHERS_WRITE) !== 0)
    return `is writable by other users (mode ${(info.mode & 0o7777).toString(8)}): any local user could plant a session there; use a directory only this service's user can write (mode 700)`;
  return undefined;
}

function refuse(field: string, problem: string): ValidationError {
  return new ValidationError([{ field, message: problem }]);
}

/** Throws a ValidationError naming `field` when `dir` exists and others could write in it. */
export function checkDirectorySync(dir: string, field: string): void {
  let info: ReturnType<typeof statSync>;
  try {
    info = statSync(dir);
  } catch {
    return; // not there yet: created with mode 700 on first use, and checked then
  }
  const problem = directoryProblem(info);
  if (problem) throw refuse(field, problem);
}

/** Rejects with a ValidationError naming `field` when others could write in `dir`. */
export async function checkDirectory(dir: string, field: string): Promise<void> {
  const problem = directoryProblem(await stat(dir));
  if (problem) throw refuse(field, problem);
}

/** Why an opened file is not trusted, or undefined when it is. */
function fileProblem(info: { mode: number; uid: number; isFile(): boolean }): string | undefined {
  if (!info.isFile()) return "is not a regular file";
  const me = uid();
  if (me !== undefined && info.uid !== me) return "is owned by another user";
  if ((info.mode & OTHERS_WRITE) !== 0) return "is writable by other users";
  return undefined;
}

const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Paths already reported, so that a planted file warns once, not on every read. */
const reported = new Set<string>();

/** Reports an untrusted file once per path and reason (never its content: it may hold tokens). */
export type UntrustedReport = (message: string) => void;

const defaultReport: UntrustedReport = (message) =>
  process.emitWarning(message, { code: "AUDIENCE_UNTRUSTED_SHARE_FILE" });

/**
 * The text of `path` when this service's user could have written it; undefined when it is absent
 * or not trusted (reported once through `report`).
 */
export async function readTrusted(path: string, report: UntrustedReport = defaultReport): Promise<string | undefined> {
  const distrust = (problem: string): undefined => {
    const key = `${path}\n${problem}`;
    if (!reported.has(key)) {
      reported.add(key);
      report(`file share: ${path} ${problem}; it is ignored as if absent`);
    }
    return undefined;
  };
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, READ_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    // ELOOP: a symbolic link (O_NOFOLLOW); some systems say EMLINK or EFTYPE.
    if (code === "ELOOP" || code === "EMLINK" || code === "EFTYPE") return distrust("is a symbolic link");
    throw error;
  }
  try {
    const problem = fileProblem(await handle.stat());
    if (problem) return distrust(problem);
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}
