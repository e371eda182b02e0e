import { describe, expect, it } from 'vitest';
import { BUDGET_IMPORT_COLUMNS, plantBudgetBody } from '@solar/shared';
import {
  bodyOf,
  draftOf,
  emptyYear,
  importProblemsOf,
  monthsMissingEnergy,
  templateCsv,
  totalOf,
} from './budget-model';

describe('budget editor model', () => {
  it('turns stored months into twelve drafts and back into a body the shared schema accepts', () => {
    const stored = [
      { month: 1, energy_kwh: 3100, irradiation_kwh_m2: 60 },
      { month: 7, energy_kwh: 12100.5, irradiation_kwh_m2: null },
    ];
    const draft = draftOf(stored);
    expect(draft).toHaveLength(12);
    expect(draft[6]).toEqual({ energy_kwh: 12100.5, irradiation_kwh_m2: null });
    expect(draft[1]).toEqual({ energy_kwh: null, irradiation_kwh_m2: null });
    const body = bodyOf(2031, draft);
    // Months without energy are left out: they have no budget.
    expect(body).toEqual({ year: 2031, months: stored });
    expect(plantBudgetBody.safeParse(body).success).toBe(true);
    expect(bodyOf(2031, emptyYear())).toEqual({ year: 2031, months: [] });
  });

  it('finds months with irradiation but no energy, which the schema would refuse', () => {
    const draft = emptyYear();
    draft[2] = { energy_kwh: null, irradiation_kwh_m2: 120 };
    draft[3] = { energy_kwh: 0, irradiation_kwh_m2: 150 };
    expect(monthsMissingEnergy(draft)).toEqual([3]);
    expect(monthsMissingEnergy(emptyYear())).toEqual([]);
  });

  it('sums the given figures and says null when none is given', () => {
    const draft = emptyYear();
    draft[0] = { energy_kwh: 1000.25, irradiation_kwh_m2: null };
    draft[11] = { energy_kwh: 0, irradiation_kwh_m2: null };
    draft[5] = { energy_kwh: 2000.5, irradiation_kwh_m2: null };
    expect(totalOf(draft, 'energy_kwh')).toBe(3000.75);
    expect(totalOf(draft, 'irradiation_kwh_m2')).toBeNull();
  });

  it('writes a template with the import header and a row per plant and month', () => {
    const csv = templateCsv([4, 9], 2027);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const lines = csv.slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe(BUDGET_IMPORT_COLUMNS.join(';'));
    expect(lines).toHaveLength(1 + 24);
    expect(lines[1]).toBe('4;2027;1;;');
    expect(lines[24]).toBe('9;2027;12;;');
    expect(templateCsv([], 2027).slice(1)).toBe(`${BUDGET_IMPORT_COLUMNS.join(';')}\r\n`);
  });

  it('reads a refused import’s problems by line, an unreadable file first', () => {
    expect(
      importProblemsOf({
        'line 12: month': ['validation.duplicate'],
        'line 3: energy_kwh': ['validation.invalidNumber'],
        'line 3: irradiation_kwh_m2': ['validation.outOfRange'],
        content_base64: ['validation.invalidValue'],
      }),
    ).toEqual([
      { line: 0, column: '', messages: ['validation.invalidValue'] },
      { line: 3, column: 'energy_kwh', messages: ['validation.invalidNumber'] },
      { line: 3, column: 'irradiation_kwh_m2', messages: ['validation.outOfRange'] },
      { line: 12, column: 'month', messages: ['validation.duplicate'] },
    ]);
    expect(importProblemsOf(undefined)).toEqual([]);
  });
});
