/**
 * Whole-file writes that a reader in another process never sees half done: the text goes to a
 * temporary file in the same directory (same file system, so the rename is atomic), then the
 * temporary file is renamed over the target. A reader opens either the old file or the new one.
 */
import { randomUUID } from "node:crypto";
import { open, readdir, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** Files that hold session tokens: readable and writable by their owner only. */
export const PRIVATE_FILE_MODE = 0o600;

/** A temporary file is named `<target>.tmp-<pid>-<uuid>`, so that leftovers can be found. */
const TEMP_SUFFIX = /\.tmp-\d+-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Replaces the content of `path` with `text` atomically, mode 0o600. */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const temp = join(dirname(path), `${basename(path)}.tmp-${process.pid}-${randomUUID()}`);
  try {
    const handle = await open(temp, "wx", PRIVATE_FILE_MODE);
    try {
      // The umask can only clear bits of the mode given to open; set it exactly all the same.
      await handle.chmod(PRIVATE_FILE_MODE);
      await handle.writeFile(text, "utf8");
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/**
 * Removes the temporary files older than `olderThanMs` of `path` and of the files named after it
 * (`<path>.lock.3`): a write takes far less, so such a file was left by a process killed between
 * writing it and renaming it.
 */
export async function removeStaleTempFiles(path: string, olderThanMs: number): Promise<void> {
  const dir = dirname(path);
  const base = basename(path);
  const names = await readdir(dir).catch(() => [] as string[]);
  const now = Date.now();
  for (const name of names) {
    if (!name.startsWith(base) || !TEMP_SUFFIX.test(name)) continue;
    const file = join(dir, name);
    const info = await stat(file).catch(() => undefined);
    if (info && now - info.mtimeMs > olderThanMs) await unlink(file).catch(() => undefined);
  }
}
