import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { BUDGET_FILE_LIMITS } from './budget-file-limits';
import { FileRefused, readBudgetFile, type BudgetFile, type Cell } from './budget-file-reader';
import { manyRowsXlsx, zipBombXlsx } from './budget-test-files';

/** How budget imports read an XLSX before the streaming reader: the whole workbook loaded by exceljs. */
async function exceljsRows(data: Buffer): Promise<BudgetFile> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(data as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const valueOf = (v: ExcelJS.CellValue): Cell => {
    if (v === null || v === undefined) return null;
    if (typeof v === 'number' || typeof v === 'string') return v;
    if (typeof v === 'object' && 'result' in v) return valueOf(v.result);
    if (typeof v === 'object' && 'richText' in v) return v.richText.map((r) => r.text).join('');
    return null;
  };
  const header: string[] = [];
  const rows: BudgetFile['rows'] = [];
  sheet.eachRow({ includeEmpty: false }, (row, line) => {
    const cells = Array.from({ length: 5 }, (_, i) => valueOf(row.getCell(i + 1).value));
    if (line === 1)
      header.push(
        ...cells.map((c) =>
          String(c ?? '')
            .trim()
            .toLowerCase(),
        ),
      );
    else if (cells.some((c) => c !== null)) rows.push({ line, cells });
  });
  return { header, rows };
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'read',
    (e: unknown) => (e instanceof FileRefused ? e.reason : String(e)),
  );

describe('budget file reader', () => {
  it('reads every kind of cell of an XLSX as exceljs read it', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('first', {});
    const sheet = workbook.worksheets[0]!;
    sheet.addRow(['Plant_ID ', 'year', 'month', 'energy_kwh', 'irradiation_kwh_m2', 'note']);
    sheet.addRow([7, 2026, 1, 1234.5, 55.5, 'a note']);
    sheet.addRow(['7', '2026', '2', '1234,5', '']);
    sheet.addRow([]);
    sheet.addRow([null, null, null, null, null, 'only a note']);
    sheet.addRow([
      { richText: [{ text: '1' }, { text: '2' }] },
      { formula: '2000+26', result: 2026 },
      { formula: 'TEXT(3,"0")', result: '3' },
      new Date(Date.UTC(2026, 0, 1)),
      true,
    ]);
    sheet.addRow([{ error: '#N/A' }, { formula: 'A1', result: { error: '#REF!' } }, -0.5, 1e20, ' 12 ']);
    sheet.getCell('C7').numFmt = 'yyyy-mm-dd';
    sheet.getCell('D7').numFmt = '#,##0.00 "kWh"';
    sheet.addRow([8, 2027, 3, 1, null]);
    workbook.addWorksheet('second').addRow(['not', 'read']);
    const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
    const expected = await exceljsRows(xlsx);
    expect(await readBudgetFile('xlsx', xlsx, BUDGET_FILE_LIMITS)).toEqual(expected);
    // The oracle read something worth comparing.
    expect(expected.header[0]).toBe('plant_id');
    expect(expected.rows.map((r) => r.line)).toEqual([2, 3, 6, 7, 8]);
  });

  it('reads the inline strings and references of a hand-written sheet as exceljs did', async () => {
    const xlsx = manyRowsXlsx(3);
    expect(await readBudgetFile('xlsx', xlsx, BUDGET_FILE_LIMITS)).toEqual(await exceljsRows(xlsx));
    const compact = manyRowsXlsx(3, { compact: true });
    expect((await readBudgetFile('xlsx', compact, BUDGET_FILE_LIMITS)).rows.map((r) => r.line)).toEqual([
      2, 3, 4,
    ]);
  });

  it('stops one row past the row limit, and refuses past the cell, row element and size limits', async () => {
    const limits = { ...BUDGET_FILE_LIMITS, maxDataRows: 10 };
    const stopped = await readBudgetFile('xlsx', manyRowsXlsx(1000), limits);
    expect(stopped.rows).toHaveLength(11);
    expect(stopped.rows.at(-1)!.line).toBe(12);
    const csv = Buffer.from(`plant_id;year\n${'1;2\n\n'.repeat(1000)}`);
    const csvStopped = await readBudgetFile('csv', csv, limits);
    expect(csvStopped.rows).toHaveLength(11);
    expect(csvStopped.rows.at(-1)!.line).toBe(22);

    expect(
      await refusal(readBudgetFile('xlsx', manyRowsXlsx(100), { ...BUDGET_FILE_LIMITS, maxCells: 50 })),
    ).toBe('tooLarge');
    expect(await refusal(readBudgetFile('csv', csv, { ...limits, maxCells: 5 }))).toBe('tooLarge');
    expect(await refusal(readBudgetFile('xlsx', manyRowsXlsx(100), { ...limits, maxSheetRows: 5 }))).toBe(
      'tooLarge',
    );
    expect(await refusal(readBudgetFile('xlsx', manyRowsXlsx(100), { ...limits, maxSheetBytes: 1000 }))).toBe(
      'tooLarge',
    );
  });

  it('refuses zip bombs whether they declare their size or lie about it, without inflating them', async () => {
    for (const bomb of [zipBombXlsx(64), zipBombXlsx(64, { lie: true })]) {
      const started = performance.now();
      expect(await refusal(readBudgetFile('xlsx', bomb, BUDGET_FILE_LIMITS))).toBe('tooLarge');
      // 64 MiB of blanks would take far longer to inflate and parse than the one mebibyte read.
      expect(performance.now() - started).toBeLessThan(2000);
    }
  });

  it('refuses what is not a workbook as unreadable', async () => {
    expect(await refusal(readBudgetFile('xlsx', Buffer.from('not a zip'), BUDGET_FILE_LIMITS))).toBe(
      'unreadable',
    );
    const broken = manyRowsXlsx(3);
    broken.fill(0, broken.length - 22);
    expect(await refusal(readBudgetFile('xlsx', broken, BUDGET_FILE_LIMITS))).toBe('unreadable');
  });
});
