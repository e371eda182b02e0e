import { describe, expect, it } from 'vitest';
import type { PlantOverviewItem } from '@solar/shared';
import { budgetOf, fleetFigures, gaugeOf, ranked, scaled, yearIn } from './figures';

const plant = (over: Partial<PlantOverviewItem>): PlantOverviewItem => ({
  plant_id: 1,
  name: 'P',
  field_id: 1,
  company_id: 1,
  company_name: 'C',
  latitude: null,
  longitude: null,
  time_zone: 'Europe/Istanbul',
  status: 'normal',
  dc_capacity_kwp: null,
  ac_capacity_kw: null,
  ac_power_kw: null,
  ac_capacity_percent: null,
  energy_today_kwh: null,
  energy_source: 'none',
  specific_yield_today_kwh_kwp: null,
  pr_today: null,
  pr_yesterday: null,
  active_alarms: { low: 0, medium: 0, high: 0, dangerous: 0, total: 0 },
  last_data_at: null,
  below_neighbour: null,
  excluded_irradiance_hours_yesterday: {
    stale: 0,
    spike: 0,
    out_of_range: 0,
    irradiance_above_clear_sky: 0,
    irradiance_night_offset: 0,
    irradiance_power_drift: 0,
    irradiance_neighbour_disagreement: 0,
    replayed_day: 0,
    total: 0,
  },
  ...over,
});

describe('fleetFigures', () => {
  it('sums power, capacity of the reporting plants, energy and alarms; weights PR by P0', () => {
    const f = fleetFigures([
      plant({
        ac_power_kw: 400,
        ac_capacity_kw: 500,
        energy_today_kwh: 1200,
        dc_capacity_kwp: 600,
        pr_yesterday: 0.8,
        active_alarms: { low: 1, medium: 0, high: 2, dangerous: 0, total: 3 },
      }),
      plant({
        ac_power_kw: 100,
        ac_capacity_kw: 250,
        energy_today_kwh: null,
        dc_capacity_kwp: 200,
        pr_yesterday: 0.6,
        active_alarms: { low: 0, medium: 1, high: 0, dangerous: 1, total: 2 },
      }),
      // Silent: no power, so its capacity is left out of the share; no PR, so out of the weight.
      plant({ ac_capacity_kw: 1000, dc_capacity_kwp: 1000, energy_today_kwh: 30 }),
    ]);
    expect(f.plants).toBe(3);
    expect(f.powerKw).toBe(500);
    expect(f.capacityKw).toBe(750);
    expect(f.energyTodayKwh).toBe(1230);
    expect(f.prYesterday).toBeCloseTo((0.8 * 600 + 0.6 * 200) / 800, 10);
    expect(f.alarms).toEqual({ low: 1, medium: 1, high: 2, dangerous: 1, total: 5 });
  });

  it('answers no figure rather than zero when nothing reported', () => {
    const f = fleetFigures([plant({}), plant({ pr_yesterday: 0.9 })]);
    expect(f).toMatchObject({ powerKw: null, capacityKw: null, energyTodayKwh: null, prYesterday: null });
    expect(fleetFigures([]).plants).toBe(0);
  });
});

describe('scaled, ranked and yearIn', () => {
  it('scales kW and kWh by thousands', () => {
    expect(scaled(950, 'kW')).toEqual({ value: 950, unit: 'kW' });
    expect(scaled(12_500, 'kWh')).toEqual({ value: 12.5, unit: 'MWh' });
    expect(scaled(3.2e6, 'kW')).toEqual({ value: 3.2, unit: 'GW' });
  });

  it('ranks highest first, ties and missing values by name', () => {
    const order = ranked(
      [
        { name: 'Çanakkale', value: null },
        { name: 'Bursa', value: 4.2 },
        { name: 'Adana', value: 4.2 },
        { name: 'Antalya', value: null },
        { name: 'Şile', value: 5 },
      ],
      'tr-TR',
    ).map((p) => p.name);
    expect(order).toEqual(['Şile', 'Adana', 'Bursa', 'Antalya', 'Çanakkale']);
  });

  it("takes the year at the plant's own midnight", () => {
    // 31 December 2025, 22:30 UTC is already 1 January 2026 in Istanbul (UTC+3), still 2025 in Lisbon.
    const now = Date.UTC(2025, 11, 31, 22, 30);
    expect(yearIn('Europe/Istanbul', now)).toBe(2026);
    expect(yearIn('Europe/Lisbon', now)).toBe(2025);
  });
});

describe('gaugeOf', () => {
  it("places the value in the period's range, the value itself included", () => {
    expect(
      gaugeOf(75, [
        [1, 50],
        [2, null],
        [3, 100],
      ]),
    ).toEqual({ min: 50, max: 100, percent: 50 });
    // A value above everything the period saw widens the range to itself: the gauge is full.
    expect(
      gaugeOf(120, [
        [1, 20],
        [2, 40],
      ]),
    ).toEqual({ min: 20, max: 120, percent: 100 });
    expect(gaugeOf(5, [])).toEqual({ min: 5, max: 5, percent: 100 });
    expect(gaugeOf(null, [[1, 3]])).toEqual({ min: null, max: null, percent: 0 });
  });
});

describe('budgetOf', () => {
  it("reads a row's budget when the KPI answer carries one, and nothing otherwise", () => {
    expect(budgetOf({ key: '2026-01', budget: { budget_kwh: 41_000, budget_ratio: 0.9 } })).toBe(41_000);
    expect(budgetOf({ key: '2026-01', budget: { budget_kwh: null } })).toBeNull();
    expect(budgetOf({ key: '2026-01', budget: null })).toBeNull();
    expect(budgetOf({ key: '2026-01' })).toBeNull();
  });
});
