import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  columnLetter,
  detectDelimiter,
  detectTimeFormat,
  HistoryFileRefused,
  numberOf,
  problemsAsErrors,
  readHistoryFile,
  timeOf,
} from './history-file';
import { transformEnergy, unitFactor, wallToInstant } from './history-points';
import { kindOf, typicalIntervalMs } from './history-quality';

/** A Sunny Portal-like export: two title lines, `;`, decimal commas, day-first times. */
const SUNNY = [
  'Plant: Demo;;',
  'Exported 2026-01-05;;',
  '',
  'Time;PAC INV-01 [kW];E-Total INV-01 [kWh]',
  '01.07.2025 12:00;12,5;1000,25',
  '01.07.2025 12:05;13,25;1001,5',
  '01.07.2025 12:10;-;1002,75',
  '13.07.2025 12:15;14;1.004,00',
].join('\r\n');

describe('history files', () => {
  it('reads figures with either decimal mark, thousands only in groups of three', () => {
    expect(numberOf('12,5', ',')).toBe(12.5);
    expect(numberOf('1.004,25', ',')).toBe(1004.25);
    expect(numberOf('1.5', ',')).toBeUndefined();
    expect(numberOf('1,234.5', '.')).toBe(1234.5);
    expect(numberOf('12,5', '.')).toBeUndefined();
    expect(numberOf('abc', '.')).toBeUndefined();
    expect(numberOf(7, ',')).toBe(7);
  });

  it('reads the time formats of the common exports', () => {
    expect(timeOf('2025-07-01 12:05:00', 'iso')).toEqual({
      ms: Date.UTC(2025, 6, 1, 12, 5),
      absolute: false,
    });
    expect(timeOf('2025-07-01T12:05:00+03:00', 'iso')).toEqual({
      ms: Date.UTC(2025, 6, 1, 9, 5),
      absolute: true,
    });
    expect(timeOf('2025/07/01 12:05', 'iso')!.ms).toBe(Date.UTC(2025, 6, 1, 12, 5));
    expect(timeOf('01.07.2025 12:05', 'dmy')!.ms).toBe(Date.UTC(2025, 6, 1, 12, 5));
    expect(timeOf('07/01/2025 12:05', 'mdy')!.ms).toBe(Date.UTC(2025, 6, 1, 12, 5));
    expect(timeOf('31.04.2025 12:05', 'dmy')).toBeUndefined();
    expect(timeOf(1751371500, 'epoch_s')).toEqual({ ms: 1751371500000, absolute: true });
    // 45839.5 is 2025-07-01 12:00 as a spreadsheet serial.
    expect(timeOf(45839.5, 'excel')!.ms).toBe(Date.UTC(2025, 6, 1, 12));
    expect(detectTimeFormat(['01/07/2025 12:00', '13/07/2025 12:00'])).toBe('dmy');
    expect(detectTimeFormat(['07/01/2025 12:00', '07/13/2025 12:00'])).toBe('mdy');
    expect(detectTimeFormat(['2025-07-01 00:00'])).toBe('iso');
    expect(detectTimeFormat([1751371500000])).toBe('epoch_ms');
  });

  it('finds the delimiter, the header below title rows and the figure columns', async () => {
    expect(detectDelimiter(['a;b;c', '1,5;2,5;3'])).toBe(';');
    expect(detectDelimiter(['a,b,c', '1,2,3'])).toBe(',');
    expect(columnLetter(0)).toBe('A');
    expect(columnLetter(27)).toBe('AB');
    const file = await readHistoryFile('csv', Buffer.from(SUNNY));
    expect(file.detection).toMatchObject({
      delimiter: ';',
      decimal_mark: ',',
      time_format: 'dmy',
      time_has_offset: false,
    });
    const [sheet] = file.detection.sheets;
    expect(sheet).toMatchObject({ header_line: 4, time_column: 0, rows: 4 });
    expect(sheet!.columns.map((c) => [c.name, c.numeric])).toEqual([
      ['Time', false],
      ['PAC INV-01 [kW]', true],
      ['E-Total INV-01 [kWh]', true],
    ]);
  });

  it('refuses a malformed cell with its line and column', async () => {
    const bad = SUNNY.replace('13,25', '13,2x5').replace('01.07.2025 12:10', '01.07.2025 25:10');
    const refused = await readHistoryFile('csv', Buffer.from(bad)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HistoryFileRefused);
    expect(problemsAsErrors((refused as HistoryFileRefused).problems)).toEqual({
      'line 6: B': ['validation.invalidNumber'],
      'line 7: A': ['validation.invalidDate'],
    });
  });

  it('reads every sheet of a workbook with dates as date cells', async () => {
    const wb = new ExcelJS.Workbook();
    for (const name of ['INV-01', 'INV-02']) {
      const ws = wb.addWorksheet(name);
      ws.addRow(['Report of ' + name]);
      ws.addRow(['Time', 'Active power(kW)']);
      for (let i = 0; i < 3; i++) ws.addRow([new Date(Date.UTC(2025, 6, 1, 12, 5 * i)), 10 + i]);
      ws.getColumn(1).numFmt = 'yyyy-mm-dd hh:mm';
    }
    const data = Buffer.from(await wb.xlsx.writeBuffer());
    const file = await readHistoryFile('xlsx', data);
    expect(file.detection.time_format).toBe('excel');
    expect(file.detection.sheets.map((s) => [s.name, s.header_line, s.rows])).toEqual([
      ['INV-01', 2, 3],
      ['INV-02', 2, 3],
    ]);
  });

  it('converts units, wall times and energy kinds', () => {
    expect(unitFactor('W', 'kW')).toBe(0.001);
    expect(unitFactor('MWh', 'kWh')).toBe(1000);
    expect(unitFactor('kW', 'kWh')).toBeUndefined();
    expect(unitFactor('as_is', 'W/m²')).toBe(1);
    // Istanbul is UTC+3 all year; Berlin's 2025-03-30 02:30 does not exist, 2025-10-26 02:30 twice.
    expect(wallToInstant('Europe/Istanbul')(Date.UTC(2025, 6, 1, 12))).toBe(Date.UTC(2025, 6, 1, 9));
    expect(wallToInstant('Europe/Berlin')(Date.UTC(2025, 9, 26, 2, 30))).toBe(Date.UTC(2025, 9, 26, 0, 30));
    expect(wallToInstant('Europe/Berlin')(Date.UTC(2025, 2, 30, 2, 30))).toBe(Date.UTC(2025, 2, 30, 1, 30));
    const pts = [1, 2, 3].map((v, i) => ({ ts: i, value: v }));
    expect(transformEnergy(pts, 'accumulate').map((p) => p.value)).toEqual([1, 3, 6]);
    expect(
      transformEnergy(
        [
          { ts: 0, value: 10 },
          { ts: 1, value: 12 },
          { ts: 2, value: 1 },
        ],
        'difference',
      ),
    ).toEqual([
      { ts: 1, value: 2 },
      { ts: 2, value: 1 },
    ]);
  });

  it('names signal kinds and the reporting interval', () => {
    expect(kindOf('ac_power', 'kW', false)).toBe('ac_power');
    expect(kindOf('total_energy', 'kWh', true)).toBe('energy_counter');
    expect(kindOf('poa_irradiance', 'W/m²', false)).toBe('irradiance_poa');
    expect(typicalIntervalMs([0, 300, 600, 1200, 1500].map((ts) => ({ ts, value: 0 })))).toBe(300);
  });
});
