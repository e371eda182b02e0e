import { describe, expect, it } from 'vitest';
import type { PlantKpisAnswer } from '@solar/shared';
import { aboveExpectationKwh, waterfallOption, waterfallSteps, type WaterfallStep } from './chart-options';

type Losses = PlantKpisAnswer['losses'];

const losses = (l: Omit<Losses, 'total_kwh'>): Losses => ({
  ...l,
  total_kwh: Object.values(l).reduce((a, b) => a + b, 0),
});

const names = {
  expected: 'Expected',
  actual: 'Actual',
  above: 'Above expectation',
  steps: {
    downtime: 'Downtime',
    communication_gap: 'Communication gap',
    clipping: 'Clipping',
    grid_curtailment: 'Grid curtailment',
    soiling: 'Soiling',
    underperformance: 'Underperformance',
  },
};

/** The option's bar series (base, totals, losses, above) as arrays of values. */
function seriesOf(steps: WaterfallStep[], language = 'en_US', narrow = false) {
  const option = waterfallOption(steps, names, language, narrow);
  const series = option.series as {
    data: (number | null)[];
    label?: { formatter: (p: unknown) => string };
  }[];
  const categories = (option.xAxis as { data: string[] }).data;
  const labels = steps.map((_, i) => {
    const owner = series.slice(1).find((s) => s.data[i] !== null)!;
    return owner.label!.formatter({ value: owner.data[i] });
  });
  return { series, categories, labels };
}

describe('loss waterfall', () => {
  it('hangs each loss from the running total and labels every bar with its energy', () => {
    const l = losses({
      downtime_kwh: 30,
      communication_gap_kwh: 5,
      clipping_kwh: 0,
      grid_curtailment_kwh: 0,
      underperformance_kwh: 12.25,
    });
    const steps = waterfallSteps(200, 200 - l.total_kwh, l);
    expect(aboveExpectationKwh(steps)).toBe(0);
    const { series, categories, labels } = seriesOf(steps);
    expect(categories).toEqual([
      'Expected',
      'Downtime',
      'Communication gap',
      'Clipping',
      'Grid curtailment',
      'Underperformance',
      'Actual',
    ]);
    // Base under each bar: the running total after the loss.
    expect(series[0]!.data).toEqual([0, 170, 165, 165, 165, 152.75, 0]);
    expect(series[2]!.data).toEqual([null, 30, 5, 0, 0, 12.25, null]);
    // One decimal, whole kWh from 100 up (the bars stay narrow on a phone).
    expect(labels).toEqual(['200 kWh', '30 kWh', '5 kWh', '0 kWh', '0 kWh', '12.3 kWh', '153 kWh']);
    // The interface language's digits.
    expect(seriesOf(steps, 'tr_TR').labels[5]).toBe('12,3 kWh');
    // On a phone the unit goes under the number: neighbouring labels stay apart.
    expect(seriesOf(steps, 'tr_TR', true).labels[6]).toBe('153\nkWh');
  });

  it('carves an estimated soiling loss out of underperformance, the bars still adding up to actual', () => {
    const l = losses({
      downtime_kwh: 30,
      communication_gap_kwh: 5,
      clipping_kwh: 0,
      grid_curtailment_kwh: 0,
      underperformance_kwh: 12.25,
    });
    const steps = waterfallSteps(200, 200 - l.total_kwh, l, 4.25);
    expect(steps.map((s) => [s.key, s.kwh])).toEqual([
      ['expected', 200],
      ['downtime', 30],
      ['communication_gap', 5],
      ['clipping', 0],
      ['grid_curtailment', 0],
      ['soiling', 4.25],
      ['underperformance', 8],
      ['actual', 152.75],
    ]);
    // No estimate: no soiling bar (never a bar of 0), underperformance whole.
    expect(waterfallSteps(200, 200 - l.total_kwh, l).map((s) => s.key)).not.toContain('soiling');
  });

  it('shows energy above the model as its own rising bar, never as a negative loss or a rising underperformance', () => {
    // Downtime 20 kWh, yet the rest of the plant made 50 kWh more than the model expected.
    const l = losses({
      downtime_kwh: 20,
      communication_gap_kwh: 0,
      clipping_kwh: 0,
      grid_curtailment_kwh: 0,
      underperformance_kwh: -50,
    });
    const steps = waterfallSteps(150, 150 - l.total_kwh, l);
    expect(aboveExpectationKwh(steps)).toBe(50);
    const { series, categories, labels } = seriesOf(steps);
    expect(categories).not.toContain('Underperformance');
    expect(categories.at(-2)).toBe('Above expectation');
    // No bar of any series below zero, and the losses' series holds no rising step.
    for (const s of series) for (const v of s.data) if (v !== null) expect(v).toBeGreaterThanOrEqual(0);
    const above = categories.indexOf('Above expectation');
    expect(series[2]!.data[above]).toBeNull();
    expect(series[3]!.data[above]).toBe(50);
    // It rises from what the losses left (130) to the actual energy (180).
    expect(series[0]!.data[above]).toBe(130);
    expect(series[1]!.data.at(-1)).toBe(180);
    expect(labels[above]).toBe('50 kWh');
    expect(labels.some((text) => /[-−]\s*\d/.test(text))).toBe(false);
  });

  it('treats a loss too small to show as zero rather than as energy above expectation', () => {
    const l = losses({
      downtime_kwh: 0,
      communication_gap_kwh: 0,
      clipping_kwh: 0,
      grid_curtailment_kwh: 0,
      underperformance_kwh: -0.01,
    });
    const steps = waterfallSteps(100, 100.01, l);
    expect(aboveExpectationKwh(steps)).toBe(0);
    expect(steps.find((s) => s.key === 'underperformance')?.kwh).toBe(0);
  });
});
