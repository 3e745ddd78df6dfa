/** Manual sales ingest (JSON or an XLSX workbook) and media upload (Section 4). */
import type { components } from "../../generated/schema.ts";
import type { AudienceClient } from "../client-types.ts";
import { ValidationError } from "../errors/validation-error.ts";
import { withSignal } from "../internal/with-signal.ts";
import { unwrap } from "../unwrap.ts";
import { type CallOptions, helperCall, helperWork, objectOptions } from "./call-options.ts";
import { deadlineAt, withDeadline } from "./deadline.ts";
import { assertXlsx, toBytes } from "./xlsx.ts";

/** @inline */
type Client = Pick<AudienceClient, "POST" | "config">;
/** Body of POST /ingest/transaction_summary (`components["schemas"]["TransactionSummary"]`). */
export type TransactionSummary = components["schemas"]["TransactionSummary"];
/** Bytes of an upload as a caller may hold them; in Node, `@audience-intelligence/client/node` reads paths. */
export type UploadInput = Uint8Array | ArrayBuffer | Blob;

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** POST /ingest/transaction_summary — validated first (dates real and in order, ticket rows sound). */
export async function ingestTransactionSummary(
  client: Client,
  summary: TransactionSummary,
  options?: AbortSignal | CallOptions,
): Promise<unknown> {
  return helperCall(client, options, (init) => client.POST("/ingest/transaction_summary", { body: summary, ...init }));
}

function form(bytes: Uint8Array, filename: string, type: string): FormData {
  const data = new FormData();
  data.set("file", new Blob([bytes as Uint8Array<ArrayBuffer>], { type }), filename);
  return data;
}

/**
 * POST /ingest/transaction_summary/from_excel with `eid` in the query and the workbook as the
 * multipart part `file`. The bytes are checked to be a real XLSX workbook before anything is sent.
 * Not repeated once sent (x-retry: never).
 */
export async function ingestExcel(
  client: Client,
  eid: string,
  workbook: UploadInput,
  options: { filename?: string; signal?: AbortSignal; deadlineMs?: number; priority?: "high" | "low" | "auto" } = {},
): Promise<unknown> {
  return helperWork(client, () => sendWorkbook(client, eid, workbook, objectOptions(options)));
}

async function sendWorkbook(
  client: Client,
  eid: string,
  workbook: UploadInput,
  options: NonNullable<Parameters<typeof ingestExcel>[3]>,
): Promise<unknown> {
  const at = deadlineAt(options.deadlineMs);
  const bytes = await toBytes(workbook, "workbook");
  assertXlsx(bytes, "workbook");
  return unwrap(
    await client.POST("/ingest/transaction_summary/from_excel", {
      params: { query: { eid } },
      body: form(bytes, options.filename ?? "transactions.xlsx", XLSX_TYPE) as never,
      ...withSignal(options.signal),
      ...withDeadline(at),
      ...(options.priority ? { priority: options.priority } : {}),
    }),
  );
}

/** POST {mediaUrl}/media with the multipart part `file`. Not repeated once sent. */
export async function uploadMedia(
  client: Client,
  file: UploadInput,
  options: {
    filename: string;
    contentType?: string;
    signal?: AbortSignal;
    deadlineMs?: number;
    priority?: "high" | "low" | "auto";
  },
): Promise<unknown> {
  return helperWork(client, () => sendMedia(client, file, objectOptions(options) as Parameters<typeof uploadMedia>[2]));
}

async function sendMedia(
  client: Client,
  file: UploadInput,
  options: Parameters<typeof uploadMedia>[2],
): Promise<unknown> {
  const at = deadlineAt(options?.deadlineMs);
  const bytes = await toBytes(file, "file");
  if (bytes.byteLength === 0) throw new ValidationError([{ field: "file", message: "is empty (0 bytes)" }]);
  if (typeof options?.filename !== "string" || !options.filename.trim() || /[\r\n"]/.test(options.filename)) {
    throw new ValidationError([
      { field: "filename", message: "must be a non-empty file name without quotes or line breaks" },
    ]);
  }
  return unwrap(
    await client.POST("/media", {
      body: form(bytes, options.filename, options.contentType ?? "application/octet-stream") as never,
      ...withSignal(options.signal),
      ...withDeadline(at),
      ...(options.priority ? { priority: options.priority } : {}),
    }),
  );
}
