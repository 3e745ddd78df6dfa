import { ValidationError } from "../errors/validation-error.ts";

// Browser-safe on purpose: Uint8Array, DataView and TextDecoder only, no `node:` modules.

/**
 * The bytes of an upload, whatever form the caller holds them in.
 *
 * @param field - Names the input in the {@link ValidationError} thrown for anything else.
 * @example
 * const bytes = await toBytes(fileInput.files[0]); // a browser File is a Blob
 */
export async function toBytes(input: Uint8Array | ArrayBuffer | Blob, field = "file"): Promise<Uint8Array> {
  // Checks that also hold across realms (iframes, test environments), where `instanceof` fails.
  if (ArrayBuffer.isView(input)) {
    const view: ArrayBufferView = input; // from JavaScript, possibly another typed array or a DataView
    return view instanceof Uint8Array ? view : new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  }
  if (Object.prototype.toString.call(input) === "[object ArrayBuffer]") return new Uint8Array(input as ArrayBuffer);
  if (typeof (input as Partial<Blob> | null)?.arrayBuffer === "function")
    return new Uint8Array(await (input as Blob).arrayBuffer());
  throw new ValidationError([{ field, message: "must be a Uint8Array, an ArrayBuffer or a Blob" }]);
}

/**
 * Refuses anything but an XLSX workbook before it is uploaded (Section 4: POST
 * /ingest/transaction_summary/from_excel takes "part file (XLSX)"), so that a CSV or an old .xls
 * fails here with a clear message instead of as an opaque server error.
 *
 * Accepts a ZIP archive (local file header `PK\x03\x04` and an end-of-central-directory record)
 * whose central directory lists `[Content_Types].xml` and `xl/workbook.xml`. Otherwise throws a
 * {@link ValidationError} on `field` saying what the file is instead: empty, text/CSV, an old
 * .xls, a damaged ZIP, a ZIP that is not a workbook (a .docx, say), or unrecognised.
 *
 * @example
 * const bytes = await toBytes(file);
 * assertXlsx(bytes); // throws ValidationError "file: is an old .xls workbook; save it as .xlsx …"
 */
export function assertXlsx(bytes: Uint8Array, field = "file"): void {
  // Anything else (from JavaScript) would crash in the ZIP reader with a TypeError or RangeError.
  // Checked by tag, not instanceof, so that a Uint8Array (or Buffer) of another realm passes.
  if (Object.prototype.toString.call(bytes) !== "[object Uint8Array]")
    throw new ValidationError([{ field, message: "must be a Uint8Array (toBytes reads an ArrayBuffer or a Blob)" }]);
  const problem = xlsxProblem(bytes);
  if (problem !== undefined) throw new ValidationError([{ field, message: problem }]);
}

const ZIP_LOCAL_HEADER = [0x50, 0x4b, 0x03, 0x04]; // "PK\x03\x04"
const OLE2_HEADER = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]; // .xls, .doc, and encrypted OOXML

function xlsxProblem(bytes: Uint8Array): string | undefined {
  if (bytes.length === 0) return "is empty (zero bytes); expected an XLSX workbook";
  if (startsWith(bytes, ZIP_LOCAL_HEADER)) return zipProblem(bytes);
  // Excel also wraps a password-protected .xlsx in an OLE2 container, so say so too.
  if (startsWith(bytes, OLE2_HEADER))
    return "is an old .xls workbook; save it as .xlsx (a password-protected workbook looks the same: remove the password)";
  if (looksLikeText(bytes))
    return "looks like text/CSV, not an XLSX workbook; save it as .xlsx from the spreadsheet program";
  return "is not an XLSX workbook (unrecognised content)";
}

// Other ZIP-based formats a user may pick by mistake, recognised by one part each.
const OTHER_ZIP_FORMATS: ReadonlyArray<readonly [part: string, what: string]> = [
  ["xl/workbook.bin", "a binary .xlsb workbook; save it as .xlsx"],
  ["word/document.xml", "a Word document"],
  ["ppt/presentation.xml", "a PowerPoint presentation"],
  ["content.xml", "an OpenDocument file; save it as .xlsx"],
];

function zipProblem(bytes: Uint8Array): string | undefined {
  const names = centralDirectoryNames(bytes);
  if (names === undefined)
    return "is a damaged or incomplete ZIP file (no readable central directory); expected an XLSX workbook";
  if (names.has("[content_types].xml") && names.has("xl/workbook.xml")) return undefined;
  const other = OTHER_ZIP_FORMATS.find(([part]) => names.has(part));
  if (other) return `is a ZIP archive but not an XLSX workbook: it is ${other[1]}`;
  const missing = names.has("xl/workbook.xml") ? "[Content_Types].xml" : "xl/workbook.xml";
  return `is a ZIP archive but not an XLSX workbook (no ${missing})`;
}

const EOCD_SIGNATURE = 0x06054b50;
const EOCD_SIZE = 22;
const MAX_ZIP_COMMENT = 0xffff;
const CENTRAL_HEADER_SIGNATURE = 0x02014b50;
const CENTRAL_HEADER_SIZE = 46;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_EOCD_SIGNATURE = 0x06064b50;
const ZIP64_EOCD_SIZE = 56;

/**
 * The entry names of the central directory, lower-cased (OPC part names compare case-insensitively),
 * or undefined when the archive has no readable central directory (truncated, damaged).
 */
function centralDirectoryNames(bytes: Uint8Array): Set<string> | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const directory = locateCentralDirectory(view);
  if (directory === undefined) return undefined;

  const names = new Set<string>();
  const decoder = new TextDecoder(); // names are UTF-8 or CP437; the two agree on the ASCII we look for
  for (let p = directory.start; p < directory.end; ) {
    if (p + CENTRAL_HEADER_SIZE > directory.end || view.getUint32(p, true) !== CENTRAL_HEADER_SIGNATURE)
      return undefined;
    const nameEnd = p + CENTRAL_HEADER_SIZE + view.getUint16(p + 28, true);
    if (nameEnd > directory.end) return undefined;
    names.add(decoder.decode(bytes.subarray(p + CENTRAL_HEADER_SIZE, nameEnd)).toLowerCase());
    p = nameEnd + view.getUint16(p + 30, true) + view.getUint16(p + 32, true); // + extra + comment
  }
  return names;
}

/** Where the central directory lies, read from the end record (or its ZIP64 form), if it fits the file. */
function locateCentralDirectory(view: DataView): { start: number; end: number } | undefined {
  const eocd = findEndOfCentralDirectory(view);
  if (eocd === undefined) return undefined;
  let start = view.getUint32(eocd + 16, true);
  let size = view.getUint32(eocd + 12, true);
  let limit = eocd;
  if (start === 0xffffffff || size === 0xffffffff) {
    // ZIP64: the real numbers are in a ZIP64 end record, found through the locator 20 bytes before.
    const locator = eocd - 20;
    if (locator < 0 || view.getUint32(locator, true) !== ZIP64_LOCATOR_SIGNATURE) return undefined;
    const record = Number(view.getBigUint64(locator + 8, true));
    if (record + ZIP64_EOCD_SIZE > locator || view.getUint32(record, true) !== ZIP64_EOCD_SIGNATURE) return undefined;
    size = Number(view.getBigUint64(record + 40, true));
    start = Number(view.getBigUint64(record + 48, true));
    limit = record;
  }
  return start + size <= limit ? { start, end: start + size } : undefined;
}

/** The end record sits in the last 22 bytes, followed by an optional comment of up to 64 KiB. */
function findEndOfCentralDirectory(view: DataView): number | undefined {
  const last = view.byteLength - EOCD_SIZE;
  for (let p = last; p >= 0 && p >= last - MAX_ZIP_COMMENT; p--) {
    if (view.getUint32(p, true) === EOCD_SIGNATURE) return p;
  }
  return undefined;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

const TEXT_SAMPLE_BYTES = 4096;

/**
 * Text (CSV, TSV, HTML saved as .xlsx) has a byte-order mark, or no control bytes other than
 * tab, line feed, vertical tab, form feed, carriage return and escape in its first 4 KiB.
 */
function looksLikeText(bytes: Uint8Array): boolean {
  const hasBom =
    startsWith(bytes, [0xef, 0xbb, 0xbf]) || startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff]);
  return (
    hasBom || bytes.subarray(0, TEXT_SAMPLE_BYTES).every((b) => b >= 0x20 || (b >= 0x09 && b <= 0x0d) || b === 0x1b)
  );
}
