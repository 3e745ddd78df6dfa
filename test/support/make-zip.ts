/** Builds small ZIP archives for tests: stored (uncompressed) entries, no external tool needed. */

/** One file of the archive. Strings are written as UTF-8. */
export interface ZipEntry {
  readonly name: string;
  readonly data: string | Uint8Array;
}

/** CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), as the ZIP format requires. */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * A minimal valid ZIP: a local header and data per entry, the central directory, and the end record.
 * With `zip64`, the end record defers to a ZIP64 end record, as archives over 4 GiB do.
 *
 * @example
 * const zip = makeZip([{ name: "hello.txt", data: "hi" }]);
 */
export function makeZip(entries: readonly ZipEntry[], options: { comment?: string; zip64?: boolean } = {}): Uint8Array {
  const utf8 = new TextEncoder();
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = utf8.encode(entry.name);
    const data = typeof entry.data === "string" ? utf8.encode(entry.data) : entry.data;
    const crc = crc32(data);
    const local = record(30 + name.length + data.length, (v) => {
      v.setUint32(0, 0x04034b50, true);
      v.setUint16(4, 20, true); // version needed: 2.0
      v.setUint16(6, 0x0800, true); // flags: names are UTF-8
      v.setUint16(8, 0, true); // method: stored
      v.setUint32(14, crc, true);
      v.setUint32(18, data.length, true);
      v.setUint32(22, data.length, true);
      v.setUint16(26, name.length, true);
    });
    local.set(name, 30);
    local.set(data, 30 + name.length);
    const central = record(46 + name.length, (v) => {
      v.setUint32(0, 0x02014b50, true);
      v.setUint16(4, 20, true); // version made by
      v.setUint16(6, 20, true); // version needed
      v.setUint16(8, 0x0800, true);
      v.setUint16(10, 0, true);
      v.setUint32(16, crc, true);
      v.setUint32(20, data.length, true);
      v.setUint32(24, data.length, true);
      v.setUint16(28, name.length, true);
      v.setUint32(42, offset, true); // where the local header starts
    });
    central.set(name, 46);
    locals.push(local);
    centrals.push(central);
    offset += local.length;
  }
  const comment = utf8.encode(options.comment ?? "");
  const directorySize = centrals.reduce((n, c) => n + c.length, 0);
  const zip64 = options.zip64 ? zip64Records(entries.length, directorySize, offset) : [];
  const end = record(22 + comment.length, (v) => {
    v.setUint32(0, 0x06054b50, true);
    v.setUint16(8, options.zip64 ? 0xffff : entries.length, true);
    v.setUint16(10, options.zip64 ? 0xffff : entries.length, true);
    v.setUint32(12, options.zip64 ? 0xffffffff : directorySize, true);
    v.setUint32(16, options.zip64 ? 0xffffffff : offset, true);
    v.setUint16(20, comment.length, true);
  });
  end.set(comment, 22);
  return concat([...locals, ...centrals, ...zip64, end]);
}

/** The ZIP64 end record (56 bytes) and its locator (20 bytes), placed right after the central directory. */
function zip64Records(count: number, directorySize: number, directoryOffset: number): Uint8Array[] {
  const recordOffset = directoryOffset + directorySize;
  const end64 = record(56, (v) => {
    v.setUint32(0, 0x06064b50, true);
    v.setBigUint64(4, 44n, true); // size of the rest of this record
    v.setUint16(12, 45, true); // version made by: 4.5 (ZIP64)
    v.setUint16(14, 45, true);
    v.setBigUint64(24, BigInt(count), true);
    v.setBigUint64(32, BigInt(count), true);
    v.setBigUint64(40, BigInt(directorySize), true);
    v.setBigUint64(48, BigInt(directoryOffset), true);
  });
  const locator = record(20, (v) => {
    v.setUint32(0, 0x07064b50, true);
    v.setBigUint64(8, BigInt(recordOffset), true);
    v.setUint32(16, 1, true); // total number of disks
  });
  return [end64, locator];
}

function record(length: number, write: (view: DataView) => void): Uint8Array {
  const bytes = new Uint8Array(length);
  write(new DataView(bytes.buffer));
  return bytes;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The parts of a minimal workbook: content types, package and workbook relationships, the workbook, one empty sheet. */
export function minimalXlsxEntries(): ZipEntry[] {
  return [
    {
      name: "[Content_Types].xml",
      data:
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
        "</Types>",
    },
    {
      name: "_rels/.rels",
      data:
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
        "</Relationships>",
    },
    {
      name: "xl/workbook.xml",
      data:
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
        '<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>',
    },
    {
      name: "xl/_rels/workbook.xml.rels",
      data:
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>' +
        "</Relationships>",
    },
    {
      name: "xl/worksheets/sheet1.xml",
      data:
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData/></worksheet>',
    },
  ];
}
