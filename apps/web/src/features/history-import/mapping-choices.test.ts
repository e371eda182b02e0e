import { describe, expect, it } from 'vitest';
import type { HistoryImportJob } from '@solar/shared';
import { choicesOf, unitOfHeader } from './mapping-choices';

describe('history import mapping choices', () => {
  it('takes the unit a header names', () => {
    expect(unitOfHeader('Pac [kW]')).toBe('kW');
    expect(unitOfHeader('E-Total (MWh)')).toBe('MWh');
    expect(unitOfHeader('Active power(W)')).toBe('W');
    expect(unitOfHeader('Irradiance W/m²')).toBe('as_is');
  });

  it('offers the figure columns of every sheet, energy ones as counters', () => {
    const job = {
      detection: {
        sheets: [
          {
            name: 'INV-01',
            columns: [
              { index: 0, letter: 'A', name: 'Time', numeric: false },
              { index: 1, letter: 'B', name: 'Pac [kW]', numeric: true },
              { index: 2, letter: 'C', name: 'Yield [kWh]', numeric: true },
              { index: 3, letter: 'D', name: 'Status', numeric: false },
            ],
          },
        ],
      },
    } as unknown as HistoryImportJob;
    expect(choicesOf(job).map((c) => [c.key, c.unit, c.energy])).toEqual([
      ['INV-01:1', 'kW', null],
      ['INV-01:2', 'kWh', 'counter'],
    ]);
  });
});
