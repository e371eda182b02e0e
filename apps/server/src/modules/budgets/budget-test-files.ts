/**
 * Hostile XLSX files for the upload-limit tests (server and resilience suites), built in memory and small
 * on disk: a sheet of a million rows and zip bombs. A minimal workbook (content types, workbook, its
 * relations, one sheet, inline strings) is what Excel and exceljs read; the zip is written by hand so that a
 * bomb's deflate stream can repeat one compressed block instead of compressing hundreds of megabytes.
 */
import { constants, crc32, deflateRawSync } from 'node:zlib';

interface ZipPart {
  name: string;
  /** The raw deflate stream of the part. */
  deflated: Buffer;
  crc: number;
  /** The uncompressed size written in the headers (a bomb may lie). */
  declaredSize: number;
}

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
  '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
  '</Types>';
const ROOT_RELS =
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="${PKG_REL_NS}">` +
  `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK =
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="${NS}" xmlns:r="${REL_NS}">` +
  '<sheets><sheet name="budget" sheetId="1" r:id="rId1"/></sheets></workbook>';
const WORKBOOK_RELS =
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="${PKG_REL_NS}">` +
  `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`;
const SHEET_HEAD = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="${NS}"><sheetData>`;
const SHEET_TAIL = '</sheetData></worksheet>';
const HEADER_ROW =
  '<row r="1">' +
  ['plant_id', 'year', 'month', 'energy_kwh']
    .map((h, i) => `<c r="${'ABCD'[i]}1" t="inlineStr"><is><t>${h}</t></is></c>`)
    .join('') +
  '</row>';

function part(name: string, text: string | Buffer, level = 9): ZipPart {
  const data = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  return { name, deflated: deflateRawSync(data, { level }), crc: crc32(data), declaredSize: data.length };
}

/** A zip archive of deflated parts (PKWARE APPNOTE 4.3: local headers, central directory, end record). */
function zip(parts: readonly ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(p.crc, 14);
    local.writeUInt32LE(p.deflated.length, 18);
    local.writeUInt32LE(p.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(p.crc, 16);
    central.writeUInt32LE(p.deflated.length, 20);
    central.writeUInt32LE(p.declaredSize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, p.deflated);
    centrals.push(central, name);
    offset += local.length + name.length + p.deflated.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

function workbookWith(sheet: ZipPart): Buffer {
  return zip([
    part('[Content_Types].xml', CONTENT_TYPES),
    part('_rels/.rels', ROOT_RELS),
    part('xl/workbook.xml', WORKBOOK),
    part('xl/_rels/workbook.xml.rels', WORKBOOK_RELS),
    sheet,
  ]);
}

/**
 * An XLSX with the budget header and `rows` one-cell data rows. 1,000,000 rows are 4.7 MB (49 MB inflated)
 * as Excel writes them, or 0.1 MB (26 MB inflated) `compact`, without the optional row and cell references.
 */
export function manyRowsXlsx(rows: number, { compact = false } = {}): Buffer {
  const sheet = Buffer.alloc(SHEET_HEAD.length + HEADER_ROW.length + SHEET_TAIL.length + rows * 48);
  let at = sheet.write(SHEET_HEAD + HEADER_ROW);
  for (let line = 2; line <= rows + 1; line++)
    at += sheet.write(
      compact ? '<row><c><v>1</v></c></row>' : `<row r="${line}"><c r="A${line}"><v>1</v></c></row>`,
      at,
    );
  at += sheet.write(SHEET_TAIL, at);
  // Level 1 is fast and, on this repetitive text, smaller than the default.
  return workbookWith(part('xl/worksheets/sheet1.xml', sheet.subarray(0, at), 1));
}

/**
 * An XLSX whose sheet inflates to `inflatedMiB` MiB of blanks between the header row and the end: one
 * megabyte of blanks compressed once (about 1 KB) and repeated, so 500 MiB take about 0.5 MB on disk.
 * `lie` writes a small uncompressed size into the headers, as bombs do to pass a check of the declared size.
 */
export function zipBombXlsx(inflatedMiB: number, { lie = false } = {}): Buffer {
  const MiB = Buffer.alloc(1024 * 1024, 0x20);
  const head = Buffer.from(SHEET_HEAD + HEADER_ROW, 'utf8');
  const tail = Buffer.from(SHEET_TAIL, 'utf8');
  // A full flush ends each piece on a byte boundary with an empty window, so identical input compresses to
  // identical bytes that can be concatenated; the tail's Z_FINISH ends the stream.
  const flushed = (data: Buffer) => deflateRawSync(data, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const blanks = flushed(MiB);
  const pieces = [flushed(head), ...Array.from({ length: inflatedMiB }, () => blanks), deflateRawSync(tail)];
  let crc = crc32(head);
  for (let i = 0; i < inflatedMiB; i++) crc = crc32(MiB, crc);
  crc = crc32(tail, crc);
  const size = head.length + inflatedMiB * MiB.length + tail.length;
  return workbookWith({
    name: 'xl/worksheets/sheet1.xml',
    deflated: Buffer.concat(pieces),
    crc,
    declaredSize: lie ? 4096 : size,
  });
}
