import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ValidationError } from "../../src/errors/validation-error.ts";
import { assertXlsx, toBytes } from "../../src/workflows/xlsx.ts";
import { crc32, makeZip, minimalXlsxEntries } from "../support/make-zip.ts";

const xlsx = makeZip(minimalXlsxEntries());

/** The one issue of the ValidationError `assertXlsx` throws, or undefined when it accepts. */
function refusal(bytes: Uint8Array, field?: string): { field: string; message: string } | undefined {
  try {
    assertXlsx(bytes, field);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const issues = (error as ValidationError).issues;
    expect(issues).toHaveLength(1);
    return issues[0];
  }
}

describe("make-zip test helper", () => {
  it("computes the standard CRC-32", () => {
    expect(crc32(new TextEncoder().encode("123456789"))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array())).toBe(0);
  });
});

describe("assertXlsx", () => {
  it("accepts a minimal workbook, with or without an archive comment", () => {
    expect(refusal(xlsx)).toBeUndefined();
    expect(refusal(makeZip(minimalXlsxEntries(), { comment: "saved by a test" }))).toBeUndefined();
  });

  it("accepts a ZIP64 workbook (central directory found through the ZIP64 end record)", () => {
    expect(refusal(makeZip(minimalXlsxEntries(), { zip64: true }))).toBeUndefined();
    expect(refusal(makeZip([{ name: "word/document.xml", data: "" }], { zip64: true }))?.message).toMatch(
      /Word document/,
    );
  });

  it("accepts a workbook inside a larger buffer (a subarray view)", () => {
    const buffer = new Uint8Array(xlsx.length + 20);
    buffer.set(xlsx, 10);
    expect(refusal(buffer.subarray(10, 10 + xlsx.length))).toBeUndefined();
  });

  it("compares part names case-insensitively, as OPC does", () => {
    const entries = minimalXlsxEntries().map((e) => ({ ...e, name: e.name.replace("workbook.xml", "Workbook.XML") }));
    expect(refusal(makeZip(entries))).toBeUndefined();
  });

  it("names the field it was given", () => {
    expect(refusal(new Uint8Array(), "upload.file")?.field).toBe("upload.file");
    expect(refusal(new Uint8Array())?.field).toBe("file");
  });

  const csv = new TextEncoder().encode("type,sold,revenue\nadult,120,3600.50\nchild,30,450\n");
  const refusals: Array<[what: string, bytes: Uint8Array, message: RegExp]> = [
    ["zero bytes", new Uint8Array(), /^is empty \(zero bytes\)/],
    ["a CSV", csv, /looks like text\/CSV, not an XLSX workbook/],
    ["a UTF-16 text export", new Uint8Array([0xff, 0xfe, 0x61, 0x00, 0x09, 0x00, 0x62, 0x00]), /looks like text\/CSV/],
    [
      "an OLE2 (.xls) header",
      new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]),
      /an old \.xls workbook; save it as \.xlsx/,
    ],
    [
      "a renamed .docx",
      makeZip([
        { name: "[Content_Types].xml", data: "<Types/>" },
        { name: "word/document.xml", data: "<w:document/>" },
      ]),
      /ZIP archive but not an XLSX workbook: it is a Word document/,
    ],
    [
      "a zip of anything else",
      makeZip([{ name: "notes.txt", data: "hello" }]),
      /ZIP archive but not an XLSX workbook \(no xl\/workbook\.xml\)/,
    ],
    [
      "a workbook without content types",
      makeZip(minimalXlsxEntries().filter((e) => e.name !== "[Content_Types].xml")),
      /\(no \[Content_Types\]\.xml\)/,
    ],
    ["a zip holding one empty file", makeZip([{ name: "x", data: "" }]), /no xl\/workbook\.xml/],
    ["a truncated workbook (no end record)", xlsx.subarray(0, xlsx.length - 30), /damaged or incomplete ZIP/],
    [
      "a PNG",
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
      /^is not an XLSX workbook \(unrecognised content\)$/,
    ],
  ];

  it.each(refusals)("refuses %s", (_what, bytes, message) => {
    const issue = refusal(bytes);
    expect(issue?.field).toBe("file");
    expect(issue?.message).toMatch(message);
  });

  it("never repeats the file's content in the message", () => {
    const secret = new TextEncoder().encode("password,hunter2\n");
    expect(JSON.stringify(refusal(secret))).not.toContain("hunter2");
  });

  it("refuses random bytes with a ValidationError, never a crash", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), (bytes) => {
        expect(refusal(bytes)).toBeDefined();
      }),
    );
  });

  it("survives damaged workbooks: accepts or refuses with a ValidationError, never a RangeError", () => {
    fc.assert(
      fc.property(fc.nat(xlsx.length - 1), fc.integer({ min: 0, max: 255 }), fc.nat(xlsx.length), (at, value, cut) => {
        const damaged = xlsx.slice(0, cut);
        if (at < damaged.length) damaged[at] = value;
        refusal(damaged); // asserts the error type itself when it throws
      }),
      { numRuns: 300 },
    );
  });
});

describe("toBytes", () => {
  const bytes = new Uint8Array([1, 2, 3]);

  it("returns a Uint8Array as is", async () => {
    expect(await toBytes(bytes)).toBe(bytes);
  });

  it("reads an ArrayBuffer and a Blob", async () => {
    expect(await toBytes(bytes.slice().buffer)).toEqual(bytes);
    expect(await toBytes(new Blob([bytes]))).toEqual(bytes);
  });

  it("refuses anything else, naming the field", async () => {
    await expect(toBytes("not bytes" as unknown as Blob, "upload")).rejects.toMatchObject({
      name: "ValidationError",
      issues: [{ field: "upload" }],
    });
  });
});
