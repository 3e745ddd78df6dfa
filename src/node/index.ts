/**
 * `@audience-intelligence/client/node` — Node-only helpers: file paths, and the session shared by
 * the processes of one host through a file. The root entry stays free of `node:` imports so that
 * it runs in browsers and edge runtimes.
 * @module @audience-intelligence/client/node
 */
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import type { AudienceClient } from "../client-types.ts";
import { ValidationError } from "../errors/validation-error.ts";
import { checkHelperClient, objectOptions } from "../workflows/call-options.ts";
import { ingestExcel, uploadMedia } from "../workflows/ingest.ts";

export type { Coordinator } from "../coordination/coordinator.ts";
export {
  type FileCoordinatorOptions,
  type FileSessionShareOptions,
  fileCoordinator,
  fileSessionShare,
} from "./file-session.ts";

async function read(path: string, field: string): Promise<Uint8Array> {
  if (typeof path !== "string" || !path.trim()) throw new ValidationError([{ field, message: "must be a file path" }]);
  try {
    return new Uint8Array(await readFile(path));
  } catch (error) {
    throw new ValidationError([
      { field, message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})` },
    ]);
  }
}

/** Ingests the XLSX workbook at `path` (checked to be a real workbook before upload). */
export async function ingestExcelFile(
  client: Pick<AudienceClient, "POST" | "config">,
  eid: string,
  path: string,
  options: { signal?: AbortSignal; deadlineMs?: number; priority?: "high" | "low" | "auto" } = {},
): Promise<unknown> {
  // Checked before the file is read; spread, a bare signal or a string would be no options at all.
  checkHelperClient(client);
  const checked = objectOptions(options);
  return ingestExcel(client, eid, await read(path, "path"), { filename: basename(path), ...checked });
}

/** Uploads the media file at `path`. */
export async function uploadMediaFile(
  client: Pick<AudienceClient, "POST" | "config">,
  path: string,
  options: { contentType?: string; signal?: AbortSignal; deadlineMs?: number; priority?: "high" | "low" | "auto" } = {},
): Promise<unknown> {
  checkHelperClient(client);
  const checked = objectOptions(options);
  return uploadMedia(client, await read(path, "path"), { filename: basename(path), ...checked });
}
