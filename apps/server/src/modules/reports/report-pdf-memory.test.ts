import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import type { ProductionFigures, ProductionReportAnswer } from '@solar/shared';
import { defaultFileBuildLimits, FileBuildPool } from '../../file-builds/file-build-pool';
import { sendReportAnswer } from './report.service';

const DAY_MS = 86_400_000;
/** A year of 6 plants: 2,196 plant-days, some 130 pages. */
const PLANTS = 6;
const DAYS = 366;
/**
 * The build thread's heap limit here, MiB. Holding every page of the document until its end (for "page i
 * of n"), each drawing operation a buffer of its own, needed some 16 MiB of heap per plant-year: 6 plants
 * ran out of 128 MiB (12 peaked at 232 MiB). Written page by page and plant by plant, a build needs about
 * the same whatever the number of plants (the fonts, the chart renderer, one slice of plants, one page):
 * 6 plants and 12 alike fit in 64 MiB.
 */
const HEAP_MB = 96;

/** Figures that differ from row to row, as real ones do (every number a string of its own in the PDF). */
function figures(seed: number): ProductionFigures {
  const r = (k: number) => ((seed * 9301 + k * 49297) % 233280) / 233280;
  const energy = 800 + 600 * r(1);
  return {
    energy_kwh: energy,
    energy_source: seed % 5 ? 'inverters' : 'meter',
    specific_yield_kwh_kwp: energy / 250,
    irradiation_kwh_m2: 3 + 3 * r(2),
    pr: 0.7 + 0.2 * r(3),
    pr_temperature_corrected: 0.72 + 0.2 * r(4),
    availability: 0.95 + 0.05 * r(5),
    expected_energy_kwh: energy * (1 + 0.1 * r(6)),
    budget_kwh: null,
    budget_irradiation_kwh_m2: null,
    weather_corrected_budget_kwh: null,
    budget_ratio: null,
    weather_corrected_budget_ratio: null,
    excluded_irradiance_hours_total: 0,
    excluded_energy_kwh_total: 0,
    losses: {
      downtime_kwh: 10 * r(7),
      communication_gap_kwh: 5 * r(8),
      clipping_kwh: 3 * r(9),
      grid_curtailment_kwh: 0,
      underperformance_kwh: 40 * r(10) - 10,
      total_kwh: 50 * r(11),
    },
    coverage: 0.9 + 0.1 * r(12),
  };
}

/** No irradiance left out: the report's warnings are not what this test measures. */
const NO_EXCLUDED_IRRADIANCE = {
  stale: 0,
  spike: 0,
  out_of_range: 0,
  irradiance_above_clear_sky: 0,
  irradiance_night_offset: 0,
  irradiance_power_drift: 0,
  irradiance_neighbour_disagreement: 0,
  replayed_day: 0,
  total: 0,
};

function yearOfPlants(): ProductionReportAnswer {
  const start = Date.parse('2025-01-01T00:00:00Z');
  return {
    type: 'production',
    from: '2025-01-01',
    to: '2026-01-01',
    lang: 'tr_TR',
    generated_at: '2026-01-02T08:00:00.000Z',
    granularity: 'day',
    plants: Array.from({ length: PLANTS }, (_, p) => ({
      plant_id: p + 1,
      name: `Güneş Santrali ${p + 1}`,
      company_id: 1,
      company_name: 'Şirket A.Ş.',
      time_zone: 'Europe/Istanbul',
      dc_capacity_kwp: 250,
      totals: figures(p),
      excluded_irradiance_hours: NO_EXCLUDED_IRRADIANCE,
      rows: Array.from({ length: DAYS }, (_, d) => ({
        key: new Date(start + d * DAY_MS).toISOString().slice(0, 10),
        ...figures(p * DAYS + d),
      })),
    })),
    totals: figures(0),
  };
}

describe('the production PDF on its build thread', () => {
  const pool = new FileBuildPool({ ...defaultFileBuildLimits(), threads: 1, heapMb: HEAP_MB });
  afterAll(() => pool.close());

  it(`writes a year of ${PLANTS} plants within a ${HEAP_MB} MiB heap, every page numbered, every plant in it`, async () => {
    const answer = yearOfPlants();
    const pdf = await pool.build(null, { kind: 'report', format: 'pdf', delimiter: 'semicolon' }, (send) =>
      sendReportAnswer(answer, send),
    );
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], {
      input: pdf,
      maxBuffer: 64 * 2 ** 20,
    }).toString('utf8');
    const pages = text.split('\f').filter((page) => page.trim());
    expect(pages.length).toBeGreaterThan(PLANTS * 15);
    // Each page's own number, of the document's count, known only once the last plant was written.
    pages.forEach((page, i) => expect(page).toContain(`Sayfa ${i + 1} / ${pages.length}`));
    for (const plant of answer.plants) expect(text).toContain(plant.name);
    // The summary's source column comes from each plant's rows, which the head no longer carries.
    expect(text).toContain('Sayaç ve inverter');
  }, 300_000);
});
