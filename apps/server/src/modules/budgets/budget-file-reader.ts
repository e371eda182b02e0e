/**
 * Reads a budget file (CSV or XLSX) as a stream, with every limit of BUDGET_FILE_LIMITS enforced while it is
 * read: the zip's parts are inflated piece by piece and counted, the XML is parsed as it arrives, and the
 * reading stops at the first row past the limit. Nothing here waits on the database or the event loop of
 * the server: it runs on a thread of its own (budget-import-thread.ts). Cell values are read as exceljs
 * read them before, so that good files import exactly as they did (docs/security.md, "Uploads").
 */
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import type { BudgetFileLimits } from './budget-file-limits';

/** A cell as read from the file: a number, a text, or empty. */
export type Cell = number | string | null;

/** One data row with the file's 1-based line number (the header is line 1). */
export interface FileRow {
  line: number;
  cells: Cell[];
}

/** The header's names (trimmed, lower case) and the data rows, at most one past the row limit. */
export interface BudgetFile {
  header: string[];
  rows: FileRow[];
}

/** Why a file is refused before its rows are checked: over a limit, or not a readable file of its format. */
export type FileRefusal = 'tooLarge' | 'unreadable';

export class FileRefused extends Error {
  constructor(readonly reason: FileRefusal) {
    super(reason);
  }
}

/** The columns read; cells to the right are counted against the limit but not kept. */
const COLUMNS_READ = 5;

// ---------------------------------------------------------------------------------------------- CSV

/** Splits one CSV line on the delimiter, honouring "quoted" fields (RFC 4180); counts fields into `cells`. */
function splitCsvLine(line: string, delimiter: string, cells: { count: number; max: number }): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  const push = () => {
    if (++cells.count > cells.max) throw new FileRefused('tooLarge');
    out.push(field);
    field = '';
  };
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === delimiter) push();
    else field += ch;
  }
  push();
  return out;
}

/**
 * The rows of a CSV file: delimiter `;`, tab or `,` as its header line uses; blank lines skipped. Lines are
 * taken one at a time, so a file of a million lines costs no more than its first 12,001 rows.
 */
export function csvRows(
  text: string,
  limits: Pick<BudgetFileLimits, 'maxDataRows' | 'maxCells'>,
): BudgetFile {
  const cells = { count: 0, max: limits.maxCells };
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const nextLine = (): string | undefined => {
    if (at > text.length) return undefined;
    let end = text.indexOf('\n', at);
    if (end === -1) end = text.length;
    const line = text.slice(at, end > at && text[end - 1] === '\r' ? end - 1 : end);
    at = end + 1;
    return line;
  };
  const head = nextLine() ?? '';
  const delimiter = head.includes(';') ? ';' : head.includes('\t') ? '\t' : ',';
  const header = splitCsvLine(head, delimiter, cells).map((h) => h.trim().toLowerCase());
  const rows: FileRow[] = [];
  for (let line = 2, l = nextLine(); l !== undefined; line++, l = nextLine()) {
    if (l.trim() === '') continue;
    const fields = splitCsvLine(l, delimiter, cells).map((c) => (c.trim() === '' ? null : c.trim()));
    rows.push({ line, cells: fields });
    if (rows.length > limits.maxDataRows) break;
  }
  return { header, rows };
}

// ---------------------------------------------------------------------------------------------- zip

function openZip(data: Buffer): Promise<ZipFile> {
  return new Promise((resolve, reject) =>
    // Sizes are checked by our own count (inflated bytes past the declared size refuse the file as too
    // large), so that a bomb lying about its size reads as what it is.
    yauzl.fromBuffer(data, { lazyEntries: true, validateEntrySizes: false }, (error, zip) =>
      error ? reject(new FileRefused('unreadable')) : resolve(zip),
    ),
  );
}

/** The zip's entries by name, from its central directory (no part is inflated). */
function entriesOf(zip: ZipFile, maxEntries: number): Promise<Map<string, Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, Entry>();
    zip.on('entry', (entry: Entry) => {
      if (entries.size >= maxEntries) {
        zip.close();
        return reject(new FileRefused('tooLarge'));
      }
      entries.set(entry.fileName.replace(/\\/g, '/'), entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', () => reject(new FileRefused('unreadable')));
    zip.readEntry();
  });
}

/** Says to stop reading a part early: the rest is not needed (past the row limit). */
const STOP = Symbol('stop');

/**
 * Inflates one part piece by piece into `onText`, counting the bytes: past `maxBytes`, or past the size the
 * zip declares, the file is refused. `onText` may throw FileRefused, or answer STOP to end the reading.
 */
function readPart(
  zip: ZipFile,
  entry: Entry,
  maxBytes: number,
  onText: (text: string) => typeof STOP | void,
): Promise<void> {
  if (entry.uncompressedSize > maxBytes) return Promise.reject(new FileRefused('tooLarge'));
  const limit = entry.uncompressedSize;
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error) return reject(new FileRefused('unreadable'));
      const decoder = new StringDecoder('utf8');
      let inflatedBytes = 0;
      let settled = false;
      const finish = (problem?: unknown) => {
        if (settled) return;
        settled = true;
        stream.destroy();
        if (problem === undefined) resolve();
        else reject(problem instanceof FileRefused ? problem : new FileRefused('unreadable'));
      };
      stream.on('data', (chunk: Buffer) => {
        if (settled) return;
        inflatedBytes += chunk.length;
        if (inflatedBytes > limit) return finish(new FileRefused('tooLarge'));
        try {
          if (onText(decoder.write(chunk)) === STOP) finish();
        } catch (problem) {
          finish(problem);
        }
      });
      stream.on('end', () => {
        try {
          onText(decoder.end());
          finish();
        } catch (problem) {
          finish(problem);
        }
      });
      stream.on('error', (problem) => finish(problem));
    });
  });
}

// ---------------------------------------------------------------------------------------------- XML

type Handlers = {
  open?: (name: string, attributes: Record<string, string>) => void;
  close?: (name: string) => void;
  text?: (text: string) => void;
};

/** The name without its namespace prefix (`x:row` → `row`): some writers prefix SpreadsheetML. */
const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/**
 * An XML parser fed text as it arrives. saxes holds a text or a tag until it ends; a piece of more than
 * maxTokenBytes without one (a megabyte of blanks, a tag without end) refuses the file, which bounds what it
 * holds. It expands no entities but XML's own five, so an entity bomb cannot grow.
 */
function xmlReader(handlers: Handlers, maxTokenBytes: number) {
  const parser = new SaxesParser({ xmlns: false, position: false });
  let sinceEvent = 0;
  parser.on('opentag', (tag: SaxesTagPlain) => {
    sinceEvent = 0;
    handlers.open?.(localName(tag.name), tag.attributes);
  });
  parser.on('closetag', (tag: SaxesTagPlain) => {
    sinceEvent = 0;
    handlers.close?.(localName(tag.name));
  });
  parser.on('text', (text: string) => {
    sinceEvent = 0;
    handlers.text?.(text);
  });
  parser.on('error', () => {
    throw new FileRefused('unreadable');
  });
  const PIECE = 64 * 1024;
  return {
    write(text: string) {
      for (let i = 0; i < text.length; i += PIECE) {
        const piece = text.slice(i, i + PIECE);
        parser.write(piece);
        sinceEvent += piece.length;
        if (sinceEvent > maxTokenBytes) throw new FileRefused('tooLarge');
      }
    },
    close() {
      parser.close();
    },
  };
}

async function readXml(
  zip: ZipFile,
  entry: Entry,
  maxBytes: number,
  maxTokenBytes: number,
  handlers: Handlers & { stop?: () => boolean },
): Promise<void> {
  const xml = xmlReader(handlers, maxTokenBytes);
  let stopped = false;
  await readPart(zip, entry, maxBytes, (text) => {
    xml.write(text);
    if (handlers.stop?.()) {
      stopped = true;
      return STOP;
    }
  });
  if (!stopped) xml.close();
}

// ---------------------------------------------------------------------------------------------- XLSX parts

/** The path in the zip of the workbook's first sheet (workbook order, as exceljs's `worksheets[0]`). */
async function firstSheetPath(zip: ZipFile, entries: Map<string, Entry>, limits: BudgetFileLimits) {
  const workbook = entries.get('xl/workbook.xml');
  const rels = entries.get('xl/_rels/workbook.xml.rels');
  if (!workbook || !rels) throw new FileRefused('unreadable');
  let firstId: string | undefined;
  await readXml(zip, workbook, limits.maxPartBytes, limits.maxTokenBytes, {
    open: (name, attributes) => {
      if (name !== 'sheet' || firstId !== undefined) return;
      const key = Object.keys(attributes).find((k) => k.endsWith(':id'));
      firstId = key && attributes[key];
    },
  });
  let target: string | undefined;
  await readXml(zip, rels, limits.maxPartBytes, limits.maxTokenBytes, {
    open: (name, attributes) => {
      if (name === 'Relationship' && attributes.Id === firstId) target = attributes.Target;
    },
  });
  if (!target) throw new FileRefused('unreadable');
  // Relative to xl/, or absolute from the package's root.
  const parts = (target.startsWith('/') ? target.slice(1) : `xl/${target}`).split('/');
  const resolved: string[] = [];
  for (const p of parts) {
    if (p === '..') resolved.pop();
    else if (p !== '.' && p !== '') resolved.push(p);
  }
  return resolved.join('/');
}

/** The texts the sheet's `t="s"` cells point to; rich text read as its runs' texts joined. */
async function sharedStringsOf(zip: ZipFile, entry: Entry | undefined, limits: BudgetFileLimits) {
  const strings: string[] = [];
  if (!entry) return strings;
  let current: string | undefined;
  let inText = false;
  let phonetic = 0;
  await readXml(zip, entry, limits.maxSharedStringsBytes, limits.maxTokenBytes, {
    open: (name) => {
      if (name === 'si') current = '';
      else if (name === 'rPh') phonetic++;
      else if (name === 't') inText = phonetic === 0;
    },
    close: (name) => {
      if (name === 'si' && current !== undefined) {
        // More texts than cells could ever point to.
        if (strings.length >= limits.maxCells) throw new FileRefused('tooLarge');
        strings.push(current);
        current = undefined;
      } else if (name === 'rPh') phonetic--;
      else if (name === 't') inText = false;
    },
    text: (text) => {
      if (inText && current !== undefined) current += text;
    },
  });
  return strings;
}

/**
 * Number formats exceljs knows by id without a definition in the file (its defaultnumformats.js), those
 * that are dates; other built-in ids it reads as plain numbers.
 */
const BUILT_IN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);

/** exceljs's test of a date format: a date or time letter outside quotes and brackets. */
function isDateFormat(code: string): boolean {
  return /[ymdhMsb]+/.test(code.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, ''));
}

/** For each cell style (cellXfs, by index): whether it shows numbers as dates, which exceljs reads as Date. */
async function dateStylesOf(zip: ZipFile, entry: Entry | undefined, limits: BudgetFileLimits) {
  if (!entry) return [];
  const customFormats = new Map<number, string>();
  const styleFormats: number[] = [];
  let inCellXfs = false;
  await readXml(zip, entry, limits.maxPartBytes, limits.maxTokenBytes, {
    open: (name, attributes) => {
      if (name === 'numFmt') customFormats.set(Number(attributes.numFmtId), attributes.formatCode ?? '');
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) styleFormats.push(Number(attributes.numFmtId ?? 0));
    },
    close: (name) => {
      if (name === 'cellXfs') inCellXfs = false;
    },
  });
  return styleFormats.map((id) => {
    if (!id) return false;
    const custom = customFormats.get(id);
    return custom ? isDateFormat(custom) : BUILT_IN_DATE_FORMATS.has(id);
  });
}

/** The 0-based column of a reference such as `AB12`, or undefined when it has none. */
function columnOf(reference: string | undefined): number | undefined {
  if (!reference) return undefined;
  let column = 0;
  let i = 0;
  for (; i < reference.length && i < 3; i++) {
    const code = reference.charCodeAt(i);
    if (code < 65 || code > 90) break;
    column = column * 26 + (code - 64);
  }
  return i === 0 ? undefined : column - 1;
}

/** One cell as its XML says, until it ends. */
interface CellXml {
  column: number;
  type: string;
  dateStyle: boolean;
  text: string | undefined;
  formula: boolean;
}

/** A cell's value as exceljs read it (cell-xform.js) and budget-import read that: figures and texts only. */
function valueOf(cell: CellXml, sharedStrings: readonly string[]): Cell {
  const { text, type } = cell;
  if (text === undefined) return null;
  if (cell.formula) {
    // The formula's cached result.
    if (type === 'str') return text;
    if (type === 'b' || type === 'e') return null;
    return cell.dateStyle ? null : parseFloat(text);
  }
  switch (type) {
    case 's':
      return sharedStrings[parseInt(text, 10)] ?? null;
    case 'str':
    case 'inlineStr':
      return text;
    case 'b':
    case 'e':
      // Booleans and errors are no budget figures: read as empty, so the row is refused.
      return null;
    default:
      // Dates are no budget figures either.
      return cell.dateStyle ? null : parseFloat(text);
  }
}

/** Reads the sheet's rows as they arrive, counting rows and cells; stops one row past the row limit. */
async function sheetRows(
  zip: ZipFile,
  entry: Entry,
  sharedStrings: readonly string[],
  dateStyles: readonly boolean[],
  limits: BudgetFileLimits,
): Promise<BudgetFile> {
  const header: string[] = [];
  const rows: FileRow[] = [];
  let sheetRowCount = 0;
  let cellCount = 0;
  let line = 0;
  let cells: Cell[] = [];
  let nextColumn = 0;
  let cell: CellXml | undefined;
  let capture: 'v' | 't' | 'f' | undefined;
  const full = () => rows.length > limits.maxDataRows;
  await readXml(zip, entry, limits.maxSheetBytes, limits.maxTokenBytes, {
    open: (name, attributes) => {
      // Past the row limit the rest of the piece being parsed is ignored, and the reading stops after it.
      if (full()) return;
      if (name === 'row') {
        if (++sheetRowCount > limits.maxSheetRows) throw new FileRefused('tooLarge');
        line = attributes.r ? parseInt(attributes.r, 10) : line + 1;
        cells = Array.from({ length: COLUMNS_READ }, () => null);
        nextColumn = 0;
      } else if (name === 'c') {
        if (++cellCount > limits.maxCells) throw new FileRefused('tooLarge');
        const column = columnOf(attributes.r) ?? nextColumn;
        nextColumn = column + 1;
        const style = attributes.s ? parseInt(attributes.s, 10) : 0;
        cell = {
          column,
          type: attributes.t ?? 'n',
          dateStyle: dateStyles[style] === true,
          text: undefined,
          formula: false,
        };
      } else if (cell && (name === 'v' || name === 't' || name === 'f')) {
        capture = name;
        // A shared formula's followers carry no text, only the attribute t="shared".
        if (name === 'f' && attributes.t) cell.formula = true;
      }
    },
    text: (text) => {
      if (!cell || !capture || full()) return;
      if (capture === 'f') cell.formula = true;
      else cell.text = (cell.text ?? '') + text;
    },
    close: (name) => {
      if (full()) return;
      if (name === 'v' || name === 't' || name === 'f') capture = undefined;
      else if (name === 'c' && cell) {
        if (cell.column < COLUMNS_READ) cells[cell.column] = valueOf(cell, sharedStrings);
        cell = undefined;
      } else if (name === 'row') {
        if (line === 1)
          header.push(
            ...cells.map((c) =>
              String(c ?? '')
                .trim()
                .toLowerCase(),
            ),
          );
        else if (cells.some((c) => c !== null)) rows.push({ line, cells });
      }
    },
    stop: full,
  });
  return { header, rows };
}

/** The rows of the first sheet of an XLSX workbook; empty rows skipped. */
export async function xlsxRows(data: Buffer, limits: BudgetFileLimits): Promise<BudgetFile> {
  const zip = await openZip(data);
  try {
    const entries = await entriesOf(zip, limits.maxZipEntries);
    const sheet = entries.get(await firstSheetPath(zip, entries, limits));
    if (!sheet) return { header: [], rows: [] };
    const sharedStrings = await sharedStringsOf(zip, entries.get('xl/sharedStrings.xml'), limits);
    const dateStyles = await dateStylesOf(zip, entries.get('xl/styles.xml'), limits);
    return await sheetRows(zip, sheet, sharedStrings, dateStyles, limits);
  } finally {
    zip.close();
  }
}

/** Reads a budget file of either format; throws FileRefused when it is over a limit or unreadable. */
export async function readBudgetFile(
  format: 'csv' | 'xlsx',
  data: Buffer,
  limits: BudgetFileLimits,
): Promise<BudgetFile> {
  if (format === 'csv') return csvRows(data.toString('utf8'), limits);
  try {
    return await xlsxRows(data, limits);
  } catch (problem) {
    throw problem instanceof FileRefused ? problem : new FileRefused('unreadable');
  }
}
