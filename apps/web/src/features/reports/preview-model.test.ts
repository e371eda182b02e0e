import { describe, expect, it } from 'vitest';
import type { DegradationReportAnswer } from '@solar/shared';
import { previewOf } from './preview-model';

const plant = {
  company_id: 1,
  company_name: 'Co',
  time_zone: 'Europe/Istanbul',
  dc_capacity_kwp: 100,
  months: [],
};

describe('report preview of the yearly degradation', () => {
  it('shows each plant and its inverters, a rate only where there is one, and says why not otherwise', () => {
    const report: DegradationReportAnswer = {
      type: 'degradation',
      from: '2024-01-01',
      to: '2024-12-31',
      lang: 'en_US',
      generated_at: '2025-01-02T08:00:00.000Z',
      plants: [
        {
          ...plant,
          plant_id: 1,
          name: 'Long',
          degradation: {
            status: 'ok',
            rate_pct_per_year: -0.6,
            ci_low_pct_per_year: -0.8,
            ci_high_pct_per_year: -0.4,
            confidence_level: 0.682,
            pairs: 700,
            block_length: 30,
            from: '2022-01-01',
            to: '2024-12-30',
            span_days: 1094,
          },
          inverters: [
            {
              device_id: 7,
              name: 'INV-1',
              result: {
                status: 'insufficient_data',
                from: '2024-03-01',
                to: '2024-12-30',
                span_days: 304,
                months_found: 9,
                months_needed: 24,
              },
            },
          ],
        },
      ],
    };
    const model = previewOf(report, 'Total', String, 'Whole plant');
    expect(model.rows).toEqual([
      {
        rowKey: '1',
        plant: 'Long',
        inverter: 'Whole plant',
        rate: -0.6,
        ci_low: -0.8,
        ci_high: -0.4,
        pairs: 700,
        data_days: 1094,
        status: 'reportPage.degradation.ok',
      },
      {
        rowKey: '1-7',
        plant: 'Long',
        inverter: 'INV-1',
        rate: null,
        ci_low: null,
        ci_high: null,
        pairs: null,
        data_days: 304,
        status: 'reportPage.degradation.insufficient_data',
      },
    ]);
    expect(model.chart.bars).toEqual([{ label: 'Long', value: -0.6 }]);
    expect(model.columns.map((c) => c.key)).toEqual([
      'plant',
      'inverter',
      'rate',
      'ci_low',
      'ci_high',
      'pairs',
      'data_days',
      'status',
    ]);
  });
});
