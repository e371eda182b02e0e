import type ExcelJS from 'exceljs';

/** What ExcelJS's streaming writer keeps of a sheet: its XML stream, piped into the zip's input. */
interface SheetStream {
  /** Written and not yet read by the zip (ExcelJS's StreamBuf, read through `read()`). */
  buffers?: { length?: number }[];
  /** The zip's input (a PassThrough of readable-stream 2, which lacks writableLength). */
  pipes?: { _writableState?: { length?: number }; _readableState?: { length?: number } }[];
}

/**
 * XML a streaming sheet wrote that the zip has not compressed yet, in bytes. ExcelJS writes a committed
 * row into the zip's input without waiting, so a writer faster than deflate piles the whole sheet up in
 * memory (an 864,000-row export held hundreds of MB); 0 when ExcelJS's internals are not as expected.
 */
function backlogBytes(sheet: ExcelJS.Worksheet): number {
  const stream = (sheet as unknown as { stream?: SheetStream }).stream;
  const unread = (stream?.buffers ?? []).reduce((a, b) => a + (b.length ?? 0), 0);
  const piped = (stream?.pipes ?? []).reduce(
    (a, p) => a + (p._writableState?.length ?? 0) + (p._readableState?.length ?? 0),
    0,
  );
  return unread + piped;
}

/** Waits until the zip has caught up with the sheet to within `maxBytes` (docs/security.md). */
export async function sheetCaughtUp(sheet: ExcelJS.Worksheet, maxBytes: number): Promise<void> {
  while (backlogBytes(sheet) > maxBytes) await new Promise((resolve) => setTimeout(resolve, 5));
}
